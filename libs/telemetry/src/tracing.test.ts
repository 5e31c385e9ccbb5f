import { trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { startTracingFromEnv, tracesRequested, tracingEnvSchema } from './tracing';

const env = (variables: Record<string, string>) => tracingEnvSchema.parse(variables);

describe('tracing from OTEL_* variables', () => {
  it('exports only when an OTLP endpoint or OTEL_TRACES_EXPORTER=otlp asks for it, and never when disabled', () => {
    expect(tracesRequested(env({}))).toBe(false);
    expect(tracesRequested(env({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }))).toBe(true);
    expect(tracesRequested(env({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }))).toBe(true);
    expect(tracesRequested(env({ OTEL_TRACES_EXPORTER: 'otlp' }))).toBe(true);
    expect(tracesRequested(env({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }))).toBe(false);
    expect(tracesRequested(env({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }))).toBe(false);
  });

  it('refuses a malformed endpoint or exporter by name', () => {
    expect(tracingEnvSchema.safeParse({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' }).error?.issues[0]?.path).toEqual(['OTEL_EXPORTER_OTLP_ENDPOINT']);
    expect(tracingEnvSchema.safeParse({ OTEL_TRACES_EXPORTER: 'zipkin' }).error?.issues[0]?.path).toEqual(['OTEL_TRACES_EXPORTER']);
  });

  it('registers nothing when none is configured: spans are the no-op ones and record nothing', () => {
    expect(startTracingFromEnv(env({}), 'platform')).toBeUndefined();
    const span = trace.getTracer('test').startSpan('work');
    expect(span.isRecording()).toBe(false);
    expect(trace.isSpanContextValid(span.spanContext())).toBe(false);
    span.end();
  });

  it('registers an OTLP exporter when asked, and unregisters it at shutdown', async () => {
    const tracing = startTracingFromEnv(env({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }), 'platform');
    expect(tracing).toBeDefined();
    expect(trace.getTracer('test').startSpan('work').isRecording()).toBe(true);
    await tracing?.shutdown();
    expect(trace.getTracer('test').startSpan('work').isRecording()).toBe(false);
  });
});

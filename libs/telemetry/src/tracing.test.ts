import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { traceSpans } from './metrics';
import { startTracingFromEnv, tracesRequested, tracingEnvSchema, tracingStarted } from './tracing';

const env = (variables: Record<string, string>) => tracingEnvSchema.parse(variables);

/** platform_trace_spans_total for one outcome. */
async function spansCounted(outcome: 'exported' | 'failed' | 'dropped'): Promise<number> {
  return (await traceSpans.get()).values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
}

/** A collector stand-in answering `status`, keeping each request's method, path and content type. */
async function collectorAnswering(status: number) {
  const posts: string[] = [];
  const server = createServer((request, response) => {
    posts.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
    request.resume();
    request.on('end', () => response.writeHead(status).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { posts, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

describe('tracing from OTEL_* variables', () => {
  it('exports only when an OTLP endpoint or OTEL_TRACES_EXPORTER=otlp asks for it, and never when disabled', () => {
    expect(tracesRequested(env({}))).toBe(false);
    expect(tracesRequested(env({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }))).toBe(true);
    expect(tracesRequested(env({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }))).toBe(true);
    expect(tracesRequested(env({ OTEL_TRACES_EXPORTER: 'otlp' }))).toBe(true);
    expect(tracesRequested(env({ OTEL_TRACES_EXPORTER: 'console' }))).toBe(true);
    expect(tracesRequested(env({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }))).toBe(false);
    expect(tracesRequested(env({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }))).toBe(false);
  });

  it('refuses a malformed endpoint or exporter by name', () => {
    expect(tracingEnvSchema.safeParse({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' }).error?.issues[0]?.path).toEqual(['OTEL_EXPORTER_OTLP_ENDPOINT']);
    expect(tracingEnvSchema.safeParse({ OTEL_TRACES_EXPORTER: 'zipkin' }).error?.issues[0]?.path).toEqual(['OTEL_TRACES_EXPORTER']);
    expect(tracingEnvSchema.safeParse({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }).error?.issues[0]?.path).toEqual(['OTEL_EXPORTER_OTLP_PROTOCOL']);
    expect(tracingEnvSchema.safeParse({ OTEL_TRACES_SAMPLER: 'sometimes' }).error?.issues[0]?.path).toEqual(['OTEL_TRACES_SAMPLER']);
    expect(tracingEnvSchema.safeParse({ OTEL_TRACES_SAMPLER_ARG: '1.5' }).error?.issues[0]?.path).toEqual(['OTEL_TRACES_SAMPLER_ARG']);
  });

  it('registers nothing when none is configured: spans are the no-op ones and record nothing', () => {
    expect(startTracingFromEnv(env({}), 'platform')).toBeUndefined();
    const span = trace.getTracer('test').startSpan('work');
    expect(span.isRecording()).toBe(false);
    expect(trace.isSpanContextValid(span.spanContext())).toBe(false);
    span.end();
  });

  it('writes spans to the given log with OTEL_TRACES_EXPORTER=console, and exports none', async () => {
    const logged: string[] = [];
    const tracing = startTracingFromEnv(env({ OTEL_TRACES_EXPORTER: 'console' }), 'platform', { logSpan: (fields, message) => logged.push(`${message} ${fields.trace_id}`) });
    const span = trace.getTracer('test').startSpan('work');
    span.end();
    expect(logged).toEqual([expect.stringMatching(new RegExp(`^span work \\d+(\\.\\d)? ms ${span.spanContext().traceId}$`))]);
    await tracing?.shutdown();
  });

  it('registers an OTLP exporter when asked, and unregisters it at shutdown', async () => {
    expect(tracingStarted()).toBe(false);
    const tracing = startTracingFromEnv(env({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }), 'platform');
    expect(tracing).toBeDefined();
    expect(tracingStarted()).toBe(true);
    expect(trace.getTracer('test').startSpan('work').isRecording()).toBe(true);
    await tracing?.shutdown();
    expect(tracingStarted()).toBe(false);
    expect(trace.getTracer('test').startSpan('work').isRecording()).toBe(false);
  });

  it('exports protobuf to <endpoint>/v1/traces by default, and JSON when the protocol variables ask for it (the traces one first), counting the spans sent', async () => {
    const collector = await collectorAnswering(200);
    const exportedBefore = await spansCounted('exported');
    const exportOneSpan = async (variables: Record<string, string>) => {
      const tracing = startTracingFromEnv(env({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, ...variables }), 'platform');
      trace.getTracer('test').startSpan('work').end();
      await tracing?.shutdown();
    };
    try {
      await exportOneSpan({});
      await exportOneSpan({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
      await exportOneSpan({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' });
    } finally {
      collector.close();
    }
    expect(collector.posts).toEqual(['POST /v1/traces application/x-protobuf', 'POST /v1/traces application/json', 'POST /v1/traces application/x-protobuf']);
    expect((await spansCounted('exported')) - exportedBefore).toBe(3);
  });

  it('counts the spans of an export the collector refuses, and hands the error to onError, in either encoding', async () => {
    const collector = await collectorAnswering(400);
    const failedBefore = await spansCounted('failed');
    const errors = new Map<string, string[]>();
    try {
      for (const protocol of ['http/protobuf', 'http/json']) {
        const reported: string[] = [];
        errors.set(protocol, reported);
        const tracing = startTracingFromEnv(env({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: protocol }), 'platform', { onError: (error) => reported.push(String(error)) });
        trace.getTracer('test').startSpan('refused').end();
        // A failed last export is reported, not thrown.
        await expect(tracing?.shutdown()).resolves.toBeUndefined();
      }
    } finally {
      collector.close();
    }
    expect(collector.posts).toHaveLength(2);
    expect((await spansCounted('failed')) - failedBefore).toBe(2);
    for (const reported of errors.values()) expect(reported.some((message) => message.includes('Bad Request'))).toBe(true);
    expect(tracingStarted()).toBe(false);
  });

  it('samples as OTEL_TRACES_SAMPLER says: every trace by default, and a caller\'s sampled trace under a parent-based ratio of 0', async () => {
    const sampledParent = trace.setSpanContext(context.active(), { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED, isRemote: true });
    const recorded = (variables: Record<string, string>) => {
      const tracing = startTracingFromEnv(env({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', ...variables }), 'platform');
      const tracer = trace.getTracer('test');
      const result = { newTrace: tracer.startSpan('work').isRecording(), callersTrace: tracer.startSpan('work', {}, sampledParent).isRecording() };
      return { result, shutdown: () => tracing?.shutdown() };
    };
    const defaults = recorded({});
    await defaults.shutdown();
    expect(defaults.result).toEqual({ newTrace: true, callersTrace: true });
    const none = recorded({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' });
    await none.shutdown();
    expect(none.result).toEqual({ newTrace: false, callersTrace: true });
  });
});

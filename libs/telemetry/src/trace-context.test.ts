import { ROOT_CONTEXT, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callersTrace, startMemoryTracing } from './testing';
import { inChildSpan, inRecordedTrace, startChildSpan, traceLogFields, unsampledTraceparent } from './trace-context';

describe('trace contexts handed on explicitly', () => {
  // One tracer provider for the file: the API's tracers keep the first provider they were used with.
  let tracing: ReturnType<typeof startMemoryTracing>;
  beforeAll(() => {
    tracing = startMemoryTracing();
  });
  afterAll(async () => {
    await tracing.shutdown();
  });
  beforeEach(() => tracing.reset());
  const tracer = () => trace.getTracer('test');

  it('starts a child under a caller\'s sampled span, and a new trace without a parent', () => {
    const child = startChildSpan(tracer(), 'child', {}, callersTrace(TraceFlags.SAMPLED));
    child.span.end();
    const root = startChildSpan(tracer(), 'root', {}, undefined);
    root.span.end();
    const [childSpan, rootSpan] = tracing.spans();
    expect(childSpan?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(childSpan?.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(trace.getSpan(child.context)).toBe(child.span);
    expect(rootSpan?.parentSpanContext).toBeUndefined();
  });

  it('makes no span below a trace the sampler left out: the parent\'s context goes on as it is', () => {
    const unsampled = callersTrace(TraceFlags.NONE);
    const child = startChildSpan(tracer(), 'child', {}, unsampled);
    child.span.end();
    expect(child.context).toBe(unsampled);
    expect(tracing.spans()).toHaveLength(0);
  });

  it('runs work in a child span only inside a recorded trace, marks a throw and passes it on', async () => {
    expect(await inChildSpan(tracer(), 'outside', {}, undefined, async (context) => context)).toBeUndefined();
    const unsampled = callersTrace(TraceFlags.NONE);
    expect(await inChildSpan(tracer(), 'left out', {}, unsampled, async (context) => context)).toBe(unsampled);
    expect(tracing.spans()).toHaveLength(0);
    await expect(inChildSpan(tracer(), 'failing', {}, callersTrace(TraceFlags.SAMPLED), async () => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    expect(tracing.spans().map((span) => ({ name: span.name, status: span.status.code, parent: span.parentSpanContext?.spanId }))).toEqual([{ name: 'failing', status: SpanStatusCode.ERROR, parent: '00f067aa0ba902b7' }]);
  });

  it('gives log fields and answers "recorded" only for a span of a recorded trace', () => {
    const recorded = startChildSpan(tracer(), 'request', {}, undefined);
    expect(inRecordedTrace(recorded.context)).toBe(true);
    expect(traceLogFields(recorded.context)).toEqual({ trace_id: recorded.span.spanContext().traceId, span_id: recorded.span.spanContext().spanId });
    recorded.span.end();
    expect(inRecordedTrace(callersTrace(TraceFlags.NONE))).toBe(false);
    expect(traceLogFields(callersTrace(TraceFlags.NONE))).toEqual({});
    expect(traceLogFields(undefined)).toEqual({});
    expect(inRecordedTrace(ROOT_CONTEXT)).toBe(false);
  });

  it('reads the sampled flag of a version-00 traceparent without parsing it into a context', () => {
    expect(unsampledTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00')).toBe(true);
    expect(unsampledTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-02')).toBe(true);
    expect(unsampledTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toBe(false);
    expect(unsampledTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-03')).toBe(false);
    // Anything else is left to the propagator, which starts a new trace for what it cannot read.
    expect(unsampledTraceparent(undefined)).toBe(false);
    expect(unsampledTraceparent('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-extra')).toBe(false);
    expect(unsampledTraceparent('garbage')).toBe(false);
  });
});

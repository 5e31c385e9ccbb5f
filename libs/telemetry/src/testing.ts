import { ROOT_CONTEXT, trace, type Context, type TraceFlags } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { samplerFor } from './trace-sampler';
import { startTracing } from './tracing';

export type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
export { SpanKind } from '@opentelemetry/api';
export { startOtlpJsonCollector, type CollectedSpan, type OtlpJsonCollector } from './otlp-json-collector';

/** Tracing into memory for tests: every finished span, at once. */
export function startMemoryTracing(serviceName = 'test'): { spans(): ReadableSpan[]; reset(): void; shutdown(): Promise<void> } {
  const exporter = new InMemorySpanExporter();
  const tracing = startTracing({ serviceName, processor: new SimpleSpanProcessor(exporter), sampler: samplerFor('parentbased_always_on', 1) });
  return {
    spans: () => exporter.getFinishedSpans(),
    reset: () => exporter.reset(),
    shutdown: () => tracing.shutdown(),
  };
}

/** A caller's span as taken from its `traceparent` (W3C's example ids), sampled or not: the parent for tests of what starts below it. */
export function callersTrace(flags: TraceFlags): Context {
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: flags, isRemote: true });
}

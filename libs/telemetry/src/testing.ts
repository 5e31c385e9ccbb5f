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

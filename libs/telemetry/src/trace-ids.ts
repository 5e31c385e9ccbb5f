import { trace } from '@opentelemetry/api';

/** The active span's ids for a log line; nothing outside a trace (or while tracing is off). */
export function activeTraceIds(): { trace_id: string; span_id: string } | Record<string, never> {
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (!spanContext || !trace.isSpanContextValid(spanContext)) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}

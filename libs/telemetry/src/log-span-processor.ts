import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { hrTimeToMilliseconds } from '@opentelemetry/core';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** One ended span as a log line's fields: the ids a trace's other log lines carry, its timing and outcome. */
export interface SpanLogFields {
  trace_id: string;
  span_id: string;
  /** Absent for a trace's root span. */
  parent_span_id?: string;
  kind: 'internal' | 'server' | 'client' | 'producer' | 'consumer';
  ms: number;
  /** Present when the span ended in error, with its message when it has one. */
  error?: string;
  attributes?: Record<string, unknown>;
}

const kindNames: Record<SpanKind, SpanLogFields['kind']> = {
  [SpanKind.INTERNAL]: 'internal',
  [SpanKind.SERVER]: 'server',
  [SpanKind.CLIENT]: 'client',
  [SpanKind.PRODUCER]: 'producer',
  [SpanKind.CONSUMER]: 'consumer',
};

/** The fields and message of an ended span's line (`span POST /api/... 4.2 ms`). */
function spanLogLine(span: ReadableSpan): { fields: SpanLogFields; message: string } {
  const { traceId, spanId } = span.spanContext();
  const ms = Math.round(hrTimeToMilliseconds(span.duration) * 10) / 10;
  const fields: SpanLogFields = {
    trace_id: traceId,
    span_id: spanId,
    ...(span.parentSpanContext ? { parent_span_id: span.parentSpanContext.spanId } : {}),
    kind: kindNames[span.kind],
    ms,
    ...(span.status.code === SpanStatusCode.ERROR ? { error: span.status.message ?? 'error' } : {}),
    ...(Object.keys(span.attributes).length ? { attributes: { ...span.attributes } } : {}),
  };
  return { fields, message: `span ${span.name} ${ms} ms` };
}

/**
 * `OTEL_TRACES_EXPORTER=console`: each span a line of the process's own log as it ends, for a
 * developer without a collector. Standard output is the log's, so the SDK's console exporter
 * (multi-line object dumps between JSON lines) would break it; these lines are the log's JSON,
 * pretty-printed at a terminal like every other line, and carry the `trace_id` the trace's other
 * lines carry, so `grep <trace_id>` over the services' output shows one write's whole path.
 */
export class LogSpanProcessor implements SpanProcessor {
  constructor(private readonly write: (fields: SpanLogFields, message: string) => void) {}

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    const { fields, message } = spanLogLine(span);
    this.write(fields, message);
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

import { ROOT_CONTEXT, SpanStatusCode, trace, TraceFlags, type Context, type Span, type SpanOptions, type Tracer } from '@opentelemetry/api';

/**
 * Trace contexts are handed on explicitly: no context manager is registered, because on Node 20
 * the only one that follows awaits (AsyncLocalStorage) runs a hook on every promise of the process
 * once in use, about 15 µs of a PATCH whether or not its trace is recorded (docs/observability.md,
 * Overhead). A request's context is its server span's (kit's requestTraceContext); whatever works
 * for it is given that context (a writer's options, a publish's options, a bus message) and starts
 * its spans under it. Callers outside any trace pass nothing.
 */
export type TraceContext = Context;

/**
 * Whether `context` holds a span of a recorded trace (its sampled flag set: a span of this process
 * that records, or a caller's sampled span taken from a `traceparent`): spans below it are worth
 * making. A span the sampler left out, here or upstream, has the flag clear.
 */
export function inRecordedTrace(context: TraceContext | undefined): context is TraceContext {
  return recordedSpan(context) !== undefined;
}

/** The span `context` holds when it belongs to a recorded trace. */
function recordedSpan(context: TraceContext | undefined): Span | undefined {
  const span = context === undefined ? undefined : trace.getSpan(context);
  return span !== undefined && sampled(span) ? span : undefined;
}

function sampled(span: Span): boolean {
  return (span.spanContext().traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED;
}

/** `trace_id` and `span_id` of the span `context` holds, for a log line; nothing outside a recorded trace. */
export function traceLogFields(context: TraceContext | undefined): { trace_id: string; span_id: string } | Record<string, never> {
  const span = recordedSpan(context);
  if (span === undefined) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/**
 * A span under `parent` (a new trace without one) and the context that holds it, for the work below
 * it. Below a span that records nothing (a trace the sampler left out) no span is made: the
 * parent's span and context are handed on as they are, so a trace is recorded whole or not at all,
 * and one left out costs no span, id or context per step.
 */
export function startChildSpan(tracer: Tracer, name: string, options: SpanOptions, parent: TraceContext | undefined): { span: Span; context: TraceContext } {
  const parentSpan = parent === undefined ? undefined : trace.getSpan(parent);
  if (parent !== undefined && parentSpan !== undefined && !sampled(parentSpan)) return { span: parentSpan, context: parent };
  const from = parent ?? ROOT_CONTEXT;
  const span = tracer.startSpan(name, options, from);
  return { span, context: trace.setSpan(from, span) };
}

/**
 * Whether a W3C `traceparent` (version 00) says its trace is not recorded: the sampled flag clear.
 * Read from the header itself, so a delivery of a trace left out is not parsed into a context.
 */
export function unsampledTraceparent(traceparent: string | undefined): boolean {
  return traceparent !== undefined && traceparent.length === 55 && traceparent.startsWith('00-') && (Number.parseInt(traceparent.slice(53), 16) & 1) === 0;
}

/** What a failure's text may show on a span (its message and stack), e.g. a URL without its credentials. */
export type FailureRedaction = (text: string) => string;

/** Marks `span` failed with `error`; with `redact`, the exception event carries its message and stack only as `redact` leaves them. */
export function recordFailure(span: Span, error: unknown, redact?: FailureRedaction): void {
  if (redact && error instanceof Error) {
    span.recordException({ name: error.name, message: redact(error.message), ...(error.stack === undefined ? {} : { stack: redact(error.stack) }) });
  } else {
    span.recordException(error as Error);
  }
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/**
 * Runs `work` in a span under `parent`, ended when the work settles and marked failed when it
 * throws; `work` gets the span's context for what it starts below, and the span to add what the
 * work learns (an answer's status). The span is made only under a recorded span (a store write, a
 * block of a run): without one, `work` runs with `parent` as is and no span.
 */
export async function inChildSpan<T>(
  tracer: Tracer,
  name: string,
  options: SpanOptions,
  parent: TraceContext | undefined,
  work: (context: TraceContext | undefined, span?: Span) => Promise<T>,
  redact?: FailureRedaction,
): Promise<T> {
  if (!inRecordedTrace(parent)) return work(parent);
  const { span, context } = startChildSpan(tracer, name, options, parent);
  try {
    return await work(context, span);
  } catch (error) {
    recordFailure(span, error, redact);
    throw error;
  } finally {
    span.end();
  }
}

import { propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { inChildSpan, type TraceContext } from './trace-context';

const tracer = trace.getTracer('http-client');

/** The port a URL connects to, written or implied by its scheme. */
function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * An outgoing HTTP call (a webhook) as a client span under `parent`, with the span's W3C
 * `traceparent` added to `headers`, so a receiver that traces joins the platform's trace. The span
 * (`POST`, the method as OpenTelemetry's HTTP conventions name client spans) is made only inside a
 * recorded trace; below a trace the sampler left out, `traceparent` carries that trace on with its
 * sampled flag clear, and outside any trace (tracing off) nothing is added. The URL attribute has no
 * query: it may hold a token. `call` returns once the answer is read; a 4xx or 5xx marks the span failed.
 */
export function inHttpClientSpan<T extends { status: number }>(parent: TraceContext | undefined, method: string, url: URL, headers: Record<string, string>, call: () => Promise<T>): Promise<T> {
  if (parent === undefined) return call();
  // Under a trace left out, inChildSpan makes no span and hands the parent's context on as it came.
  const attributes = { 'http.request.method': method, 'server.address': url.hostname, 'server.port': portOf(url), 'url.full': `${url.origin}${url.pathname}` };
  return inChildSpan(tracer, method, { kind: SpanKind.CLIENT, attributes }, parent, async (context, span) => {
    propagation.inject(context ?? parent, headers);
    const answer = await call();
    span?.setAttribute('http.response.status_code', answer.status);
    if (answer.status >= 400) span?.setStatus({ code: SpanStatusCode.ERROR });
    return answer;
  });
}

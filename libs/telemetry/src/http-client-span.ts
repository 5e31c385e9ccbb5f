import { propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { inChildSpan, type FailureRedaction, type TraceContext } from './trace-context';

const tracer = trace.getTracer('http-client');

/** The port a URL connects to, written or implied by its scheme. */
function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

const REDACTED = '[redacted]';

/**
 * Removes what a URL may carry as credentials (its user name and password, its query and fragment)
 * from a text that quotes it, such as the message of the error a call to it threw: undici's fetch
 * names the whole URL when it refuses one with a user name or password in it.
 */
export function urlSecretsRedaction(url: URL): FailureRedaction {
  const shown = `${url.origin}${url.pathname}`;
  const secrets = new Set<string>();
  for (const part of [url.search, url.hash]) if (part.length > 1) secrets.add(part);
  for (const part of [url.password, url.username]) {
    if (part === '') continue;
    secrets.add(part);
    try {
      secrets.add(decodeURIComponent(part));
    } catch {
      // Only the encoded form can appear.
    }
  }
  // Longest first, so a secret that holds another is removed whole.
  const ordered = [...secrets].sort((a, b) => b.length - a.length);
  return (text) => {
    let redacted = text.split(url.href).join(shown);
    for (const secret of ordered) redacted = redacted.split(secret).join(REDACTED);
    return redacted;
  };
}

/**
 * An outgoing HTTP call (a webhook) as a client span under `parent`, with the span's W3C
 * `traceparent` added to `headers`, so a receiver that traces joins the platform's trace. The span
 * (`POST`, the method as OpenTelemetry's HTTP conventions name client spans) is made only inside a
 * recorded trace; below a trace the sampler left out, `traceparent` carries that trace on with its
 * sampled flag clear, and outside any trace (tracing off) nothing is added. The URL attribute has no
 * query: it may hold a token, and the
 * exception event of a call that throws quotes the URL without its user name, password, query or fragment
 * (urlSecretsRedaction). `call` returns once the answer is read; a 4xx or 5xx marks the span failed.
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
  }, urlSecretsRedaction(url));
}

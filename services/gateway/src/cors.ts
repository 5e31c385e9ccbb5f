import cors from '@fastify/cors';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** The request headers a cross-origin client may send: its bearer token, JSON bodies, and a trace or request id of its own. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'accept', 'x-request-id', 'traceparent', 'tracestate'];
/** Answer headers a cross-origin client may read beside the safelisted ones: the id to quote in a report, how long to wait after a 429 or 503, and what is left of the rate limit's budget (RATE_LIMIT_MAX). */
const EXPOSED_HEADERS = ['x-request-id', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/**
 * Lets browser applications on the listed origins (`CORS_ORIGINS`; `*` for any) call the API:
 * @fastify/cors answers their preflights and marks every answer, errors and proxied answers
 * included. Without credentials: a cross-origin client signs in with a bearer token (the SDK's
 * `token` or `getToken`), and the session cookie stays with the platform's own pages, so no other
 * site can act with a visitor's cookie. With no origin listed nothing is registered: same-origin
 * only, and no hook on any request.
 */
export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  await app.register(cors, {
    origin: origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    credentials: false,
    // Ten minutes: a session's repeated calls skip most preflights, and a changed CORS_ORIGINS reaches browsers soon.
    maxAge: 600,
  });
}

/** The CORS headers set on an answer, for one that writes its own head (the realtime stream). */
export function corsHeadersOf(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ['access-control-allow-origin', 'access-control-expose-headers', 'vary']) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

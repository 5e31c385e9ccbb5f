import type { IncomingHttpHeaders } from 'node:http';
import { SESSION_COOKIE } from '@platform/contracts';
import type { FastifyRequest } from 'fastify';

/** The cookie header without the session cookie; undefined when nothing else is left. */
function withoutSessionCookie(cookie: string): string | undefined {
  const kept = cookie
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '' && (pair.split('=', 1)[0] ?? '').trim() !== SESSION_COOKIE);
  return kept.length > 0 ? kept.join('; ') : undefined;
}

/**
 * Removes the caller's credentials (`Authorization` and the session cookie) from headers bound
 * for a service. The gateway has already turned them into the signed principal; a service that
 * saw the token could act as the user beyond the request, or leak it into its logs.
 */
export function stripCredentialHeaders(headers: IncomingHttpHeaders): void {
  delete headers.authorization;
  const cookie = typeof headers.cookie === 'string' ? withoutSessionCookie(headers.cookie) : undefined;
  if (cookie === undefined) delete headers.cookie;
  else headers.cookie = cookie;
}

/** The same for a request served in-process: its headers and its parsed cookies. */
export function stripClientCredentials(request: FastifyRequest): void {
  stripCredentialHeaders(request.headers);
  if (request.cookies) delete request.cookies[SESSION_COOKIE];
}

import type { IncomingHttpHeaders } from 'node:http';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '@platform/contracts';
import type { FastifyRequest } from 'fastify';

/** Both names a session cookie may have (sessionCookieName): neither reaches a service, whichever the deployment reads. */
const SESSION_COOKIES: ReadonlySet<string> = new Set([SESSION_COOKIE, SECURE_SESSION_COOKIE]);

/** The cookie header without the session cookie; undefined when nothing else is left. */
function withoutSessionCookie(cookie: string): string | undefined {
  const kept = cookie
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '' && !SESSION_COOKIES.has((pair.split('=', 1)[0] ?? '').trim()));
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
  if (request.cookies) for (const name of SESSION_COOKIES) delete request.cookies[name];
}

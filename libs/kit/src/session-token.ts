import { parseCookie } from 'cookie';
import type { FastifyRequest } from 'fastify';

/** `Bearer <token>`; the scheme's case is free (RFC 9110, 11.1: `bearer` and `BEARER` are the same scheme). */
const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The session token from an `Authorization: Bearer` header, else the session cookie `cookieName`
 * (sessionCookieName: one name per deployment, never the other), read from the Cookie header
 * itself: the gateway's own hooks need no cookie plugin, so a proxied request passes none of its
 * hooks (services/gateway/src/app.ts).
 */
export function sessionToken(request: Pick<FastifyRequest, 'headers'>, cookieName: string): string | undefined {
  return sessionCredential(request, cookieName)?.token;
}

/** The session token with where it came from: a cookie is an ambient credential, which a browser attaches to requests other pages make. */
export function sessionCredential(request: Pick<FastifyRequest, 'headers'>, cookieName: string): { token: string; from: 'bearer' | 'cookie' } | undefined {
  const { authorization, cookie } = request.headers;
  const bearer = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
  if (bearer) return { token: bearer, from: 'bearer' };
  const token = cookie ? parseCookie(cookie)[cookieName] || undefined : undefined;
  return token ? { token, from: 'cookie' } : undefined;
}

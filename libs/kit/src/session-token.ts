import { createHash } from 'node:crypto';
import { SESSION_COOKIE } from '@platform/contracts';
import { parseCookie } from 'cookie';
import type { FastifyRequest } from 'fastify';

/** SHA-256 hex of a session token: the store never holds the token itself. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The session token from an `Authorization: Bearer` header, else the `session` cookie, read from
 * the Cookie header itself: the gateway's own hooks need no cookie plugin, so a proxied request
 * passes none of its hooks (services/gateway/src/app.ts).
 */
export function sessionToken(request: FastifyRequest): string | undefined {
  const { authorization, cookie } = request.headers;
  if (authorization?.startsWith('Bearer ')) return authorization.slice('Bearer '.length).trim() || undefined;
  return cookie ? parseCookie(cookie)[SESSION_COOKIE] || undefined : undefined;
}

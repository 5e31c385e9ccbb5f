import { createHash } from 'node:crypto';
import { SESSION_COOKIE } from '@platform/contracts';
import type { FastifyRequest } from 'fastify';

/** SHA-256 hex of a session token: the store never holds the token itself. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The session token from an `Authorization: Bearer` header, else the `session` cookie. */
export function sessionToken(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization?.startsWith('Bearer ')) return authorization.slice('Bearer '.length).trim() || undefined;
  return request.cookies?.[SESSION_COOKIE] || undefined;
}

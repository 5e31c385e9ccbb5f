import { SESSION_COOKIE } from '@platform/contracts';
import type { FastifyReply } from 'fastify';

/** The session cookie: HttpOnly, SameSite=Lax, Secure outside development, gone at the session's expiry. */
export function setSessionCookie(reply: FastifyReply, token: string, expiresAt: number, dev: boolean): void {
  void reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: !dev, expires: new Date(expiresAt) });
}

export function clearSessionCookie(reply: FastifyReply, dev: boolean): void {
  void reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: !dev });
}

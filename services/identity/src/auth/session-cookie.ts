import { sessionCookieName } from '@platform/contracts';
import type { FastifyReply } from 'fastify';

/** The session cookie: HttpOnly, SameSite=Lax, Secure and so `__Host-` outside development (sessionCookieName), gone at the session's expiry. */
export function setSessionCookie(reply: FastifyReply, token: string, expiresAt: number, dev: boolean): void {
  void reply.setCookie(sessionCookieName(!dev), token, { path: '/', httpOnly: true, sameSite: 'lax', secure: !dev, expires: new Date(expiresAt) });
}

export function clearSessionCookie(reply: FastifyReply, dev: boolean): void {
  void reply.clearCookie(sessionCookieName(!dev), { path: '/', httpOnly: true, sameSite: 'lax', secure: !dev });
}

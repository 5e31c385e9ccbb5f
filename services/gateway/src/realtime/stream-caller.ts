import type { UserPrincipal } from '@platform/contracts';
import { hashToken, sessionToken, type VerifyingSecrets } from '@platform/kit';
import type { FastifyRequest } from 'fastify';
import type { SessionLoader } from '../session-loader';
import { principalOfSession } from '../session-principal';
import { realtimeError } from './realtime-errors';
import { verifyRealtimeToken } from './realtime-token';

/** A realtime caller: the principal its session stands for now, and the key that session is stored under. */
export interface StreamCaller {
  principal: UserPrincipal;
  sessionHash: string;
}

/** The caller whose session this request presents (the session hook has just loaded it); 401 without one. */
export function sessionCaller(request: FastifyRequest, cookieName: string): StreamCaller {
  const presented = sessionToken(request, cookieName);
  if (!presented || request.principal.kind !== 'user') throw realtimeError('REALTIME_TOKEN_INVALID');
  return { principal: request.principal, sessionHash: hashToken(presented) };
}

/**
 * The caller of a realtime token: the token names a user and a session; the session is looked up
 * now, so a token of a session that has ended opens nothing, and platform ownership is the
 * session's current one, never what the token could claim.
 */
export async function tokenCaller(token: string, options: { loader: SessionLoader; secrets: VerifyingSecrets; now: number }): Promise<StreamCaller> {
  const claims = verifyRealtimeToken(token, options.secrets, options.now);
  if (!claims) throw realtimeError('REALTIME_TOKEN_INVALID');
  const lookup = await options.loader.loadByHash(claims.sessionHash);
  if (lookup.status === 'store-unavailable') throw realtimeError('REALTIME_SESSION_STORE_UNAVAILABLE');
  if (lookup.status === 'none' || lookup.session.userId !== claims.userId) throw realtimeError('REALTIME_TOKEN_INVALID');
  return { principal: principalOfSession(lookup.session), sessionHash: claims.sessionHash };
}

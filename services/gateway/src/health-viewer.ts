import { sessionToken } from '@platform/kit';
import type { FastifyRequest } from 'fastify';
import type { SessionLoader } from './session-loader';

/** How long health waits for the session store before answering as to an ordinary caller. */
const SESSION_WAIT_MS = 250;

/** Whether the request may see health detail (service URLs, backend states). */
export type HealthDetailCheck = (request: FastifyRequest) => Promise<boolean>;

/**
 * Health detail is for platform owners. Health skips the session hook (it must answer while the
 * session store is down), so it reads the caller's session itself, only when one is presented,
 * and briefly: a store that is down or slow means no detail, never a failed health check.
 */
export function platformOwnerSession(loader: SessionLoader, cookieName: string): HealthDetailCheck {
  return async (request) => {
    const token = sessionToken(request, cookieName);
    if (!token) return false;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), SESSION_WAIT_MS);
    });
    const lookup = await Promise.race([loader.load(token), gaveUp]).finally(() => clearTimeout(timer));
    return lookup?.status === 'found' && lookup.session.platformOwner;
  };
}

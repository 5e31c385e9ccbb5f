import { anonymousPrincipal, type Principal, type UserPrincipal } from '@platform/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError } from './errors';
import { PRINCIPAL_HEADER, type VerifyingSecrets } from './principal-signature';
import { cachingPrincipalVerifier } from './principal-verifier';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, set by the gateway's session hook or from the verified signed header. */
    principal: Principal;
  }
}

const principalSlot = Symbol('principal');
type WithPrincipalSlot = { [principalSlot]?: Principal };

/**
 * Declares `request.principal`, anonymous until a hook establishes who calls. A getter/setter
 * pair, because Fastify refuses a shared object as a request decoration's default.
 */
export function decoratePrincipal(app: FastifyInstance): void {
  app.decorateRequest('principal', {
    getter(this: WithPrincipalSlot) {
      return this[principalSlot] ?? anonymousPrincipal;
    },
    setter(this: WithPrincipalSlot, principal: Principal) {
      this[principalSlot] = principal;
    },
  } as never);
}

/**
 * For a service running as its own process: every request must carry a principal the gateway
 * signed; anything else (a client that reached the service directly) gets 401. `/api/health` is
 * exempt so orchestrators can probe the service; it still knows a signed caller (health detail is
 * for platform owners).
 */
export function trustSignedPrincipal(app: FastifyInstance, secrets: VerifyingSecrets): void {
  const verify = cachingPrincipalVerifier(secrets);
  // A callback hook: no promise and microtask per request, as in the app factory's hooks.
  app.addHook('onRequest', (request, _reply, done) => {
    const principal = verify(request.headers[PRINCIPAL_HEADER] as string | undefined);
    if (principal) request.principal = principal;
    else if (request.url !== '/api/health') return done(new AppError(401, 'UNSIGNED_REQUEST', 'Request did not come through the gateway'));
    done();
  });
}

/** The current user, or 401 when the request has none (the route-level user guard). */
export function requireUser(request: FastifyRequest): UserPrincipal {
  const principal = request.principal;
  if (principal.kind !== 'user') throw new AppError(401, 'UNAUTHENTICATED', 'Authentication required');
  return principal;
}

/**
 * The user guard as a Fastify preHandler, for route options: `{ preHandler: userGuard }`. A
 * callback hook (Fastify answers what it throws): no promise and microtask per request.
 */
export function userGuard(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  requireUser(request);
  done();
}

import { AppError, sessionCredential } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import { isConsolePath } from './console-assets';
import { cookieFromAnotherOrigin, crossOriginCookieRefusal } from './cross-origin-cookie';
import { isGuidePath } from './guides';
import { sessionBypassList } from './route-table';
import { mayChange, readOnlyRefusal } from './read-only-access';
import { routedPath } from './routed-path';
import { principalOfSession } from './session-principal';
import type { SessionLoader } from './session-loader';
import type { SessionUseRecorder } from './session-use-recorder';
import { openToUnconfirmedEmail, unconfirmedEmailRefusal } from './unconfirmed-email-access';
import { openToProjectScope, projectScopeRefusal } from './project-scoped-access';

/**
 * The gateway's onRequest hook: establishes `request.principal` from the session for every path
 * except the bypass list. No token, or an unknown or expired one, means anonymous; a route's user
 * guard then answers 401. A token that cannot be checked because the store is down and is not in
 * the local cache gets 503 rather than silently signing the user out. A read-only access token
 * gets 403 for any request that could change something, before any service sees it; so does a
 * session of an account whose email must be confirmed first, for anything but its own account,
 * and an access token made for some projects, for anything outside them. A page of another origin
 * that sends the session cookie with a request that may change something gets 403 too.
 */
export function registerSessionHook(app: FastifyInstance, loader: SessionLoader, uses: SessionUseRecorder, cookieName: string): void {
  // A callback hook: a request without a token (health probes, anonymous calls) continues at once,
  // without the promise and microtask of an async hook.
  app.addHook('onRequest', (request, _reply, done) => {
    const credential = sessionCredential(request, cookieName);
    if (!credential) return done();
    const path = routedPath(request.url);
    // The console's static files and the guides need no caller, and must load while the session store is down.
    if (sessionBypassList.has(path) || isConsolePath(path) || isGuidePath(path)) return done();
    if (credential.from === 'cookie' && cookieFromAnotherOrigin(request.method, request.headers)) return done(crossOriginCookieRefusal());
    loader.load(credential.token).then((lookup) => {
      if (lookup.status === 'store-unavailable') {
        return done(new AppError(503, 'GATEWAY_SESSION_STORE_UNAVAILABLE', 'Sessions cannot be checked right now; try again shortly'));
      }
      if (lookup.status === 'found') {
        if (lookup.session.readOnly && mayChange(request.method, path)) return done(readOnlyRefusal());
        if (lookup.session.emailUnconfirmed && !openToUnconfirmedEmail(request.method, path)) return done(unconfirmedEmailRefusal());
        if (lookup.session.projectIds && !openToProjectScope(request.method, path, lookup.session.projectIds)) return done(projectScopeRefusal());
        request.principal = principalOfSession(lookup.session);
        // Not while the store is down (the session came from the local cache): the write would fail too.
        if (!lookup.fromCache) uses.record(lookup.tokenHash, lookup.session);
      }
      done();
    }, done);
  });
}

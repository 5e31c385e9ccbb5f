import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import { addressLimitKey, AppError, isHealthProbePath } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import { gatewayRateLimited } from '@platform/telemetry';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isConsolePath } from './console-assets';
import { isGuidePath } from './guides';
import { routedPath } from './routed-path';

export interface RateLimitSettings {
  /** Requests one caller may send in a window (RATE_LIMIT_MAX). */
  max: number;
  /** The window's length (RATE_LIMIT_WINDOW_MS). */
  windowMs: number;
}

/**
 * @fastify/rate-limit's store on the KeyValue port: fixed windows aligned to the clock, counted by
 * one atomic increment in the shared store, so every gateway replica holds a caller to one budget
 * (the embedded store in the all-in-one, Redis in the microservice shape).
 */
function keyValueStore(kv: KeyValue, clock: () => number, windowMs: number) {
  return class KeyValueRateLimitStore implements FastifyRateLimitStore {
    // The plugin passes the window (its types leave it out).
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow = windowMs): void {
      const now = clock();
      const window = Math.floor(now / timeWindow);
      const ttl = (window + 1) * timeWindow - now;
      kv.increment(`gateway:rate:${key}:${window}`, { ttlMs: ttl }).then(
        (current) => callback(null, { current, ttl }),
        (error: Error) => callback(error),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

/** A signed-in user is one caller wherever they send from; anyone else is their address (an IPv6 client its /64). */
function callerKey(request: FastifyRequest): string {
  return request.principal.kind === 'user' ? `user:${request.principal.userId}` : `address:${addressLimitKey(request.ip)}`;
}

/** What costs nothing to serve and must load however busy a caller is: health probes, the console's files and the guides. */
function unlimited(request: FastifyRequest): boolean {
  const path = routedPath(request.url);
  return isHealthProbePath(path) || isConsolePath(path) || isGuidePath(path);
}

/**
 * The gateway's request limit per caller (off unless RATE_LIMIT_MAX is set): every route, proxied
 * or in-process, counts each request of a caller once, after the session hook has said who calls.
 * Past the budget: 429 `GATEWAY_RATE_LIMITED` with Retry-After and the x-ratelimit-* headers. If
 * the key-value store cannot count, the request passes: the limit is a brake, not a boundary.
 * Registered before the routes, whose onRequest hooks it joins.
 */
export async function registerRateLimit(app: FastifyInstance, settings: RateLimitSettings, kv: KeyValue, clock: () => number): Promise<void> {
  const windowSeconds = Math.round(settings.windowMs / 1000);
  await app.register(rateLimit, {
    global: true,
    // A route's own onRequest hooks run after the app's, so the session hook has said who calls;
    // a preHandler would come after a route's user guard, and its 401s would go uncounted.
    hook: 'onRequest',
    max: settings.max,
    timeWindow: settings.windowMs,
    store: keyValueStore(kv, clock, settings.windowMs),
    skipOnError: true,
    keyGenerator: callerKey,
    allowList: unlimited,
    onExceeded: (request) => gatewayRateLimited.inc({ caller: request.principal.kind === 'user' ? 'user' : 'address' }),
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'GATEWAY_RATE_LIMITED', `Too many requests: at most ${context.max} every ${windowSeconds} s; try again in ${context.after}`),
  });
}

import Router, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance } from 'fastify';

/** The methods a wrong one is compared against; HEAD and OPTIONS follow GET and CORS. */
const METHODS: readonly HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Which methods an app's routes take at a path, for the answer to a request no route takes: a
 * path with routes under other methods is 405 with `Allow` (`PUT .../data/{id}` where documents
 * change with PATCH), not a 404 that reads as if the path did not exist. Kept with find-my-way,
 * Fastify's own router, fed as each route is added; asked only for requests that found no route.
 */
export function trackRouteMethods(app: FastifyInstance): (path: string) => HTTPMethod[] {
  const router = Router({ ignoreTrailingSlash: true });
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (!METHODS.includes(method as HTTPMethod) || router.hasRoute(method as HTTPMethod, route.url)) continue;
      try {
        router.on(method as HTTPMethod, route.url, () => undefined);
      } catch {
        // A path this router cannot take beside the others (Fastify's took it) answers 404 as before.
      }
    }
  });
  return (path) => METHODS.filter((method) => router.find(method, path) !== null);
}

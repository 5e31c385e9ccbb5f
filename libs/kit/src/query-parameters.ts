import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * A query parameter a route does not take is refused (400 naming it and the ones the route takes)
 * instead of dropped: a misspelt filter or page size otherwise answers 200 with something else
 * than was asked for (`audit-trail?changetype=deleted` every change, `data?updatedat=T` every
 * document, `runs?limit=10` the default page). Applies to every route that declares its query
 * parameters; a route that declares none ignores a query string as before.
 */
export function refuseUnknownQueryParameters(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const query = route.schema?.querystring;
    if (query instanceof z.ZodObject) route.schema = { ...route.schema, querystring: query.strict() };
  });
}

/** The query parameters a route's schema declares, for the refusal's message. */
export function declaredQueryParameters(schema: unknown): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

import httpProxy from '@fastify/http-proxy';
import type { BackendServiceName } from '@platform/contracts';
import { PRINCIPAL_HEADER, signPrincipal } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import { routeTable } from './route-table';

/**
 * Sends every route-table prefix of a remote service to its URL with @fastify/http-proxy. The
 * caller travels as a freshly signed principal header; whatever the client sent under that name
 * is replaced, and so is the request id, so logs join up across the hop.
 */
export async function registerProxies(
  app: FastifyInstance,
  remotes: ReadonlyMap<BackendServiceName, string>,
  principalSecret: string,
): Promise<void> {
  const healthRoutes = [...remotes.keys()].map((service) => ({ prefix: `/api/health/${service}`, rewritePrefix: '/api/health', service }));
  const tableRoutes = routeTable.map((entry) => ({ ...entry, rewritePrefix: entry.prefix }));
  for (const { prefix, rewritePrefix, service } of [...tableRoutes, ...healthRoutes]) {
    const upstream = remotes.get(service);
    if (!upstream) continue;
    await app.register(httpProxy, {
      upstream,
      prefix,
      rewritePrefix,
      websocket: false,
      replyOptions: {
        rewriteRequestHeaders: (request, headers) => ({
          ...headers,
          [PRINCIPAL_HEADER]: signPrincipal(request.principal, principalSecret),
          'x-request-id': request.id,
          // The client address as the gateway sees it (services trust it: only signed requests reach them).
          'x-forwarded-for': request.ip,
        }),
      },
    });
  }
}

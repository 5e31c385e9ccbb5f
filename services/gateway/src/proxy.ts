import httpProxy from '@fastify/http-proxy';
import { propagation } from '@opentelemetry/api';
import type { BackendServiceName } from '@platform/contracts';
import { AppError, PRINCIPAL_HEADER, requestTraceContext } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import { Pool } from 'undici';
import { stripCredentialHeaders } from './client-credentials';
import { cachingPrincipalSigner } from './principal-signer';
import { routeTable } from './route-table';

/** What reply-from reports when a service cannot be reached or drops the connection (down or restarting). */
const unreachableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'FST_REPLY_FROM_SERVICE_UNAVAILABLE']);

function isUnreachable(error: Error & { code?: string; cause?: unknown }): boolean {
  const cause = error.cause as { code?: string } | undefined;
  return unreachableCodes.has(error.code ?? '') || unreachableCodes.has(cause?.code ?? '');
}

/**
 * Sends every route-table prefix of a remote service to its URL with @fastify/http-proxy, and
 * `/api/health/{service}` to that service's `/api/health`. All prefixes of one service share one
 * keep-alive pool (one registration per prefix would otherwise open a pool each). The caller
 * travels as a signed principal header; whatever the client sent under that name is replaced, and
 * so are the request id (the gateway's own, so logs join up across the hop), the W3C trace context
 * (the gateway's span, so one trace spans the hop) and X-Forwarded-For;
 * the client's credentials (Authorization, the session cookie) are not forwarded. A service that is
 * down or restarting answers 503 (retry shortly) rather than reply-from's 500.
 */
export async function registerProxies(
  app: FastifyInstance,
  remotes: ReadonlyMap<BackendServiceName, string>,
  principalSecret: string,
): Promise<void> {
  const sign = cachingPrincipalSigner(principalSecret);
  const pools = new Map([...remotes].map(([service, upstream]) => [service, new Pool(upstream, { connections: 64, pipelining: 1 })]));
  app.addHook('onClose', async () => {
    await Promise.all([...pools.values()].map((pool) => pool.close()));
  });

  const healthRoutes = [...remotes.keys()].map((service) => ({ prefix: `/api/health/${service}`, rewritePrefix: '/api/health', service }));
  const tableRoutes = routeTable.map((entry) => ({ ...entry, rewritePrefix: entry.prefix }));
  // Proxied bodies travel unparsed: http-proxy installs a pass-through parser, which may only
  // replace Fastify's own JSON parser, not the app factory's limited one; the service checks them.
  await app.register(async (proxies) => {
    proxies.removeContentTypeParser('application/json');
    // The proxy's catch-all routes stay out of the OpenAPI document: the services' own routes,
    // merged from their documents (remote-api-docs.ts), describe these paths.
    proxies.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    for (const { prefix, rewritePrefix, service } of [...tableRoutes, ...healthRoutes]) {
      const upstream = remotes.get(service);
      const pool = pools.get(service);
      if (!upstream || !pool) continue;
      await proxies.register(httpProxy, {
        upstream,
        prefix,
        rewritePrefix,
        websocket: false,
        undici: pool,
        disableRequestLogging: true,
        replyOptions: {
          onError: (reply, { error }) => {
            void reply.send(isUnreachable(error) ? new AppError(503, 'GATEWAY_SERVICE_UNAVAILABLE', `The ${service} service cannot be reached right now; try again shortly`) : error);
          },
          rewriteRequestHeaders: (request, headers) => {
            // `headers` is reply-from's own copy of the client's headers.
            stripCredentialHeaders(headers);
            headers[PRINCIPAL_HEADER] = sign(request.principal);
            headers['x-request-id'] = request.id;
            // The client address as the gateway sees it (services trust it: only signed requests reach them).
            headers['x-forwarded-for'] = request.ip;
            // Services trust one hop, so what they take for the host and scheme is what the gateway decided, not what a client wrote.
            delete headers.forwarded;
            delete headers['x-real-ip'];
            headers['x-forwarded-host'] = request.host;
            headers['x-forwarded-proto'] = request.protocol;
            // The service's spans join the gateway's trace (W3C traceparent of the gateway's span).
            const traced = requestTraceContext(request);
            if (traced) propagation.inject(traced, headers);
            return headers;
          },
        },
      });
    }
  });
}

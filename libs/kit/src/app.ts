import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { registerErrorHandling } from './errors';
import { decoratePrincipal } from './principal-hooks';

export interface AppOptions {
  logger: Logger;
  /** Largest accepted request body in bytes. */
  bodyLimit?: number;
  /** Title of the OpenAPI document this app serves. */
  title: string;
  /** Serve `/api/openapi.json` and the Swagger UI at `/api/docs`. */
  openapi?: boolean;
  /** Trust X-Forwarded-* headers (behind the gateway or a load balancer). */
  trustProxy?: boolean;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The Fastify app every process builds: zod validation and serialization, the shared error
 * handler, request ids that travel from the gateway (x-request-id), and the OpenAPI document.
 */
export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    trustProxy: options.trustProxy ?? false,
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // One access line per request (the onResponse hook below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true },
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  decoratePrincipal(app);
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });

  if (options.openapi !== false) {
    await app.register(swagger, {
      openapi: {
        info: { title: options.title, version: '0.1.0' },
        components: {
          securitySchemes: {
            sessionCookie: { type: 'apiKey', in: 'cookie', name: 'session' },
            bearer: { type: 'http', scheme: 'bearer' },
          },
        },
        security: [{ sessionCookie: [] }, { bearer: [] }],
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs' });
    app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  }
  return app;
}

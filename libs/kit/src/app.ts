import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { errorBodySchema, SESSION_COOKIE, type ErrorBody } from '@platform/contracts';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { OpenAPIV3 } from 'openapi-types';
import type { Logger } from 'pino';
import { API_DESCRIPTION, API_DOCS_PREFIX, apiDocsAppearance } from './api-docs';
import { answerClientError, registerErrorHandling } from './errors';
import { defaultHttpTimeouts, type HttpTimeouts } from './http-timeouts';
import { isHealthProbePath } from './health-probe';
import { registerLimitedJsonParser } from './json-body-parser';
import { decoratePrincipal } from './principal-hooks';
import { refuseUnknownQueryParameters } from './query-parameters';
import { instrumentRequests, type SpanRoute } from './request-telemetry';
import { awaitRunningHandlersOnClose } from './running-handlers';
import { fastifyTrustProxy, type TrustProxy } from './trust-proxy';
import { redactUrlCredentials } from './url-redaction';

export interface AppOptions {
  logger: Logger;
  /** Largest accepted request body in bytes. */
  bodyLimit?: number;
  /** Title of the OpenAPI document this app serves. */
  title: string;
  /** Serve `/api/openapi.json` and the Swagger UI at `/api/docs`. */
  openapi?: boolean;
  /** The session cookie's name in the OpenAPI document's security scheme (sessionCookieName; `session` when absent). */
  sessionCookie?: string;
  /**
   * Adds to this app's OpenAPI document before it is served at `/api/openapi.json` and `/api/docs`
   * (the microservice gateway adds the paths of the services it proxies to).
   */
  extendOpenapi?: (document: OpenAPIV3.Document) => OpenAPIV3.Document;
  /** Names a recorded request span after another route than the app's own (the gateway's proxied requests: the service's route). */
  spanRoute?: SpanRoute;
  /** Whose X-Forwarded-* headers to believe (behind the gateway or a load balancer); never all of them. */
  trustProxy?: TrustProxy;
  /**
   * Adopt a well-formed `x-request-id` as the request's id (default): right behind the gateway,
   * which sends its own. The gateway itself does not trust its clients' ids and makes one per
   * request; a client's well-formed id is only logged beside it, as `clientRequestId`.
   */
  trustRequestId?: boolean;
  /** Limits on slow clients and idle connections (defaults: `httpTimeoutsEnvSchema`). */
  timeouts?: HttpTimeouts;
}

/** How often Node looks for requests over their time limit (its default, 30 s, would let them run that much longer). */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's `x-request-id` when it is short and plain enough to log, else undefined. */
function givenRequestId(headers: IncomingHttpHeaders): string | undefined {
  const given = headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : undefined;
}

/**
 * The Swagger UI page's Content-Security-Policy (the gateway's own allows nothing): its scripts,
 * styles and images from this origin only; inline styles because the UI sets style attributes,
 * data: images for its icons; no framing, no plugins, no other base.
 */
const API_DOCS_CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/**
 * The OpenAPI document declares the shared error body as each route's `default` response, so
 * every status a route does not list (400, 401, 404, 429, 503, ...) has a schema clients and the
 * fuzzer (`pnpm test:fuzz`) can check. Documentation only: Fastify serializes with the route's own
 * response schemas.
 */
const withErrorBody: typeof jsonSchemaTransform = (input) => {
  const { schema } = input;
  const response = schema?.response as Record<string, unknown> | undefined;
  if (!schema || schema.hide || !response || 'default' in response) return jsonSchemaTransform(input);
  return jsonSchemaTransform({ ...input, schema: { ...schema, response: { ...response, default: errorBodySchema.describe('Error') } } });
};

/** The longest path parameter the router takes: a fully qualified hostname, 253 characters and a dot. */
const MAX_PATH_PARAMETER_LENGTH = 254;

/**
 * The router's own refusals (a path parameter over MAX_PATH_PARAMETER_LENGTH characters, a malformed percent escape)
 * answer the shared error body too, instead of Fastify's `{ error, message, statusCode }`.
 */
function answerRouterError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const body: ErrorBody = { error: tooLong ? 'A path parameter is too long' : 'Malformed URL', code: tooLong ? 'PATH_PARAMETER_TOO_LONG' : 'BAD_URL' };
  // Refused before any hook runs: the request id is set here instead.
  void reply.code(tooLong ? 414 : 400).header('x-request-id', request.id).send(body);
}

/**
 * The Fastify app every process builds: zod validation and serialization, the shared error
 * handler, request ids that travel from the gateway (x-request-id), the OpenAPI document, and a
 * close that waits for the route handlers still running.
 */
export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const trustRequestId = options.trustRequestId ?? true;
  const timeouts = options.timeouts ?? defaultHttpTimeouts;
  const app = Fastify({
    // Slow clients (headers or a body a byte at a time) are cut off after these; the request
    // limits end once the request has arrived, so long responses (realtime streams) are not.
    connectionTimeout: timeouts.idleMs,
    requestTimeout: timeouts.requestMs,
    http: { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_INTERVAL_MS, timeouts.headersMs) },
    loggerInstance: options.logger as FastifyBaseLogger,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    requestIdHeader: false,
    genReqId: (request) => (trustRequestId ? givenRequestId(request.headers) : undefined) ?? randomUUID(),
    // One access line per request (the onResponse hook below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // A path parameter may be as long as a hostname may (253 characters, and a trailing dot; the
    // public domain route takes one); the router's default of 100 refused long verified domains.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    clientErrorHandler: answerClientError,
    frameworkErrors: answerRouterError,
    // A request that arrives while the app closes (on a kept-alive connection, or pipelined behind a
    // running one) is answered 503 below in the platform's error shape; Fastify's own 503 had no `code`.
    return503OnClosing: false,
  });
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerLimitedJsonParser(app);
  refuseUnknownQueryParameters(app);
  decoratePrincipal(app);
  awaitRunningHandlersOnClose(app);
  instrumentRequests(app, options.spanRoute);
  // Callback hooks, not async ones: a promise and its microtask per hook and request showed in the
  // gateway's proxy profile, whose hooks are most of what it adds to a bare proxy. The request id
  // is set on arrival rather than in an onSend hook: the header survives error answers, and a
  // phase without hooks costs nothing (BENCHMARKS.md, gateway overhead).
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    if (closing) {
      // Fastify has set `Connection: close`: the client (the gateway's proxy) retries on another connection or says 503 itself.
      return void reply.code(503).header('retry-after', '1').send({ error: 'This service is stopping; try again shortly', code: 'SERVICE_STOPPING' } satisfies ErrorBody);
    }
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const log = request.log as Logger;
    // The access line's object and URL redaction are skipped when info lines are not written.
    if (!log.isLevelEnabled('info')) return done();
    // A health probe that answered well is routine (every 2 s from the gateway's monitor): a debug line. One that failed stays in view.
    const routine = reply.statusCode < 400 && isHealthProbePath(request.url);
    if (routine && !log.isLevelEnabled('debug')) return done();
    const clientRequestId = trustRequestId ? undefined : givenRequestId(request.headers);
    const line = { method: request.method, ...(clientRequestId ? { clientRequestId } : {}), url: redactUrlCredentials(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (routine) log.debug(line, 'request');
    else log.info(line, 'request');
    done();
  });

  if (options.openapi !== false) {
    await app.register(swagger, {
      openapi: {
        info: { title: options.title, version: '0.1.0', description: API_DESCRIPTION },
        components: {
          securitySchemes: {
            sessionCookie: { type: 'apiKey', in: 'cookie', name: options.sessionCookie ?? SESSION_COOKIE },
            bearer: { type: 'http', scheme: 'bearer' },
          },
        },
        security: [{ sessionCookie: [] }, { bearer: [] }],
      },
      transform: withErrorBody,
    });
    const extend = options.extendOpenapi ?? ((document) => document);
    const document = () => extend(app.swagger() as OpenAPIV3.Document);
    await app.register(swaggerUi, { routePrefix: API_DOCS_PREFIX, staticCSP: API_DOCS_CSP, transformSpecification: () => document(), ...apiDocsAppearance });
    app.get('/api/openapi.json', { schema: { hide: true } }, async () => document());
  }
  return app;
}

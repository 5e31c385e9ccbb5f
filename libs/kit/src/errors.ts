import type { ErrorBody } from '@platform/contracts';
import { StoreUnavailableError } from '@platform/storage';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { declaredQueryParameters } from './query-parameters';
import { trackRouteMethods } from './route-methods';

/**
 * An error with an HTTP status and a stable code from a service's catalogue. The shared error
 * handler turns it into `{ error, code, details }`; for 5xx the message is replaced so internals
 * never leak.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** The catalogue's own words for the code, written for clients: what a 502 or 504 says instead of its message, which may quote an upstream. */
    readonly catalogueMessage?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** A service's catalogue of errors: `const errors = errorCatalogue({ NOT_FOUND: [404, 'Not found'] })`. */
export function errorCatalogue<K extends string>(entries: Record<K, [status: number, message: string]>) {
  return (code: K, overrides: { message?: string; details?: unknown } = {}) => {
    const [status, message] = entries[code];
    return new AppError(status, code, overrides.message ?? message, overrides.details, message);
  };
}

interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string }; keys?: string[] };
}

/** A query parameter the route does not take (refuseUnknownQueryParameters): one issue per name, saying what the route takes. */
function unknownQueryParameters(issue: ValidationIssue, request: FastifyRequest): Array<{ field: string; message: string }> {
  const declared = declaredQueryParameters(request.routeOptions.schema?.querystring);
  const takes = declared.length > 0 ? `this route takes ${declared.join(', ')}` : 'this route takes none';
  return (issue.params?.keys ?? []).map((name) => ({ field: `querystring.${name}`, message: `unknown query parameter (${takes})` }));
}

function describeValidation(context: string | undefined, issues: ValidationIssue[], request: FastifyRequest): { message: string; issues: Array<{ field: string; message: string }> } {
  const described = issues.flatMap((issue) => {
    if (context === 'querystring' && issue.keyword === 'unrecognized_keys') return unknownQueryParameters(issue, request);
    const path = issue.params?.issue?.path ?? issue.instancePath?.split('/').filter(Boolean) ?? [];
    const field = [context, ...path.map(String)].filter(Boolean).join('.');
    return [{ field, message: issue.params?.issue?.message ?? issue.message ?? 'invalid' }];
  });
  const first = described[0];
  return { message: first ? `Invalid ${first.field || context || 'request'}: ${first.message}` : 'Invalid request', issues: described };
}

/**
 * The 5xx answers whose message is said to the client: 503 (unavailable for now, try again) and
 * 501 (not set up on this platform, such as password reset without mail delivery) state how the
 * platform stands, never its internals. Every other 5xx says only "Internal server error".
 */
const SAID_SERVER_STATUSES: ReadonlySet<number> = new Set([501, 503]);

/**
 * A 502 or 504 (an upstream failed: the SMTP server, the AI provider) says the catalogue's words
 * for its code ("The invitation mail could not be sent ..."), never a message given at the throw,
 * which may quote the upstream; a 500 says only "Internal server error".
 */
const UPSTREAM_STATUSES: ReadonlySet<number> = new Set([502, 504]);

/** Registers the one error handler, and the JSON 404 for unknown routes (405 for a path whose routes take other methods). */
export function registerErrorHandling(app: FastifyInstance): void {
  const methodsAt = trackRouteMethods(app);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0]!;
    const allowed = methodsAt(path);
    // A route that took the request and found nothing (a missing static file) answers 404, not 405. HEAD follows GET.
    const asked = request.method === 'HEAD' ? 'GET' : request.method;
    if (allowed.length > 0 && !allowed.includes(asked as (typeof allowed)[number])) {
      const refused: ErrorBody = { error: `${path} does not take ${request.method}: it takes ${allowed.join(', ')}`, code: 'METHOD_NOT_ALLOWED', details: { allowed } };
      return void reply.code(405).header('allow', allowed.join(', ')).send(refused);
    }
    const body: ErrorBody = { error: `Route ${request.method} ${path} not found`, code: 'NOT_FOUND' };
    void reply.code(404).send(body);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      const hidden = error.statusCode >= 500 && !SAID_SERVER_STATUSES.has(error.statusCode);
      if (hidden) request.log.error({ err: error }, 'request failed');
      const publicMessage = !hidden ? error.message : (UPSTREAM_STATUSES.has(error.statusCode) && error.catalogueMessage) || 'Internal server error';
      const retryAfter = (error.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
      if (typeof retryAfter === 'number') void reply.header('retry-after', String(retryAfter));
      const body: ErrorBody = {
        error: publicMessage,
        code: error.code,
        ...(error.details === undefined || error.statusCode >= 500 ? {} : { details: error.details }),
      };
      return reply.code(error.statusCode).send(body);
    }
    if (error instanceof StoreUnavailableError) {
      request.log.warn({ err: error }, 'store unavailable');
      return reply.code(503).send({ error: 'The database cannot be reached right now; try again shortly', code: 'STORE_UNAVAILABLE' } satisfies ErrorBody);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const { message, issues } = describeValidation(error.validationContext, error.validation as ValidationIssue[], request);
      return reply.code(400).send({ error: message, code: 'VALIDATION_FAILED', details: { issues } } satisfies ErrorBody);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
      return reply.code(500).send({ error: 'Internal server error', code: 'INTERNAL' } satisfies ErrorBody);
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(status).send({ error: 'Internal server error', code: 'INTERNAL' } satisfies ErrorBody);
    }
    // Fastify's own client errors (body too large, a content type no parser takes, ...) in the
    // interface's codes: FST_ codes are the framework's, and its messages do not say what to send.
    return reply.code(status).send(fastifyRefusal(error, request) ?? { error: error.message, code: error.code?.startsWith('FST_') ? 'BAD_REQUEST' : (error.code ?? 'BAD_REQUEST') });
  });
}

/** Fastify's refusals of a request's body, said as the platform says things, with what to send instead. */
function fastifyRefusal(error: FastifyError, request: FastifyRequest): ErrorBody | undefined {
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const sent = String(request.headers['content-type'] ?? '').slice(0, 100);
    return { error: `Bodies are JSON: send Content-Type: application/json${sent ? ` (this request sent ${sent})` : ''}`, code: 'UNSUPPORTED_MEDIA_TYPE' };
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { error: `The body is larger than the ${request.routeOptions.bodyLimit} bytes this route takes`, code: 'BODY_TOO_LARGE', details: { limitBytes: request.routeOptions.bodyLimit } };
  }
  if (error.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return { error: 'The body is not as long as its Content-Length says', code: 'BAD_REQUEST' };
  return undefined;
}

const clientErrors: Record<string, [status: number, body: ErrorBody]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, { error: 'The request took too long to arrive', code: 'REQUEST_TIMEOUT' }],
  HPE_HEADER_OVERFLOW: [431, { error: 'The request headers are too large', code: 'HEADERS_TOO_LARGE' }],
};

/**
 * Answers what Node's HTTP parser refuses before Fastify sees a request (headers over 16 KiB,
 * malformed HTTP, a request that never finishes) with the shared error body, as Fastify's own
 * handler does with another shape.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, body] = clientErrors[error.code ?? ''] ?? [400, { error: 'Malformed HTTP request', code: 'BAD_REQUEST' }];
  const payload = JSON.stringify(body);
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${payload}`);
  }
  socket.destroy(error);
}

import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';
import { httpRequestDuration, tracingStarted } from '@platform/telemetry';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const tracer = trace.getTracer('http');

/** Each request's trace context (its server span inside the caller's trace), for the hooks and the proxy. */
const traceContexts = new WeakMap<object, Context>();

/** The context of the request's server span: what a proxied request or a published message carries on. */
export function requestTraceContext(request: object): Context {
  return traceContexts.get(request) ?? context.active();
}

/** The route template for a label (`/api/projects/:projectId/...`), never the path with its ids. */
function routeLabel(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}

/**
 * One server span per request, continuing a W3C `traceparent` the caller sent (the gateway's
 * client, or the gateway for a service process) and active while hooks and the handler run, so
 * logs carry its ids and spans started below join it. Counts every answer and its latency by
 * route template, method and status. Tracing starts before any app is built (platform/src/host.ts);
 * an app built while it is off gets no span hooks at all: a hook phase (this preHandler is the
 * app's only one) costs every request even when its hook returns at once (BENCHMARKS.md, gateway
 * overhead).
 */
export function instrumentRequests(app: FastifyInstance): void {
  if (tracingStarted()) startSpansOnRequest(app);
  // Ends the span; the hooks after this one (the access line) still run inside its context.
  app.addHook('onResponse', (request, reply, done) => {
    const route = routeLabel(request);
    // Counted by the duration histogram, which platform_http_requests_total is read from.
    httpRequestDuration.observe([route, request.method, String(reply.statusCode)], reply.elapsedTime / 1000);
    const active = traceContexts.get(request);
    if (!active) return done();
    const span = trace.getSpan(active);
    // Outside a sampled trace the span records nothing: no name or attributes to build.
    if (span?.isRecording()) {
      span.updateName(`${request.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': reply.statusCode });
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span?.end();
    context.with(active, done);
  });
}

/** Starts each request's server span and makes it active for the hooks and the handler. */
function startSpansOnRequest(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan(request.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method } }, parent);
    const active = trace.setSpan(parent, span);
    traceContexts.set(request, active);
    context.with(active, done);
  });
  // The body arrives on the socket's own async context; the handler runs inside the span again.
  app.addHook('preHandler', (request, _reply, done) => {
    const active = traceContexts.get(request);
    if (!active) return done();
    context.with(active, done);
  });
}

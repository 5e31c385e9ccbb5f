import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { httpRequestDuration, startChildSpan, traceLogFields, tracingStarted, type TraceContext } from '@platform/telemetry';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isHealthProbePath } from './health-probe';
import type { Logger } from './logger';

const tracer = trace.getTracer('http');

/** Each request's trace context (its server span inside the caller's trace), for the hooks and the proxy. */
const traceContexts = new WeakMap<object, TraceContext>();

/**
 * The context of the request's server span: what the request's work starts its spans under (a
 * write's store and outbox spans), and what a proxied request carries on. Undefined while tracing
 * is off, and for a request that arrived before it started.
 */
export function requestTraceContext(request: object): TraceContext | undefined {
  return traceContexts.get(request);
}

/** The methods a label or span attribute names; any other a client sends is `_OTHER` (OpenTelemetry's HTTP conventions), so it makes no series of its own. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

function methodLabel(method: string): string {
  return KNOWN_METHODS.has(method) ? method : '_OTHER';
}

/** The route template for a label (`/api/projects/:projectId/...`), never the path with its ids. */
function routeLabel(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}

/**
 * One server span per request, continuing a W3C `traceparent` the caller sent (the gateway's
 * client, or the gateway for a service process); its context is the request's
 * (requestTraceContext), and inside a recorded trace the request's logger carries its
 * `trace_id`/`span_id`; health probes outside a caller's trace get none (isUntracedHealthProbe).
 * Counts every answer and its latency by route template, method and status.
 * Tracing starts before any app is built (platform/src/host.ts); an app built while it is off gets
 * no span hook at all: a hook costs every request even when it returns at once (BENCHMARKS.md,
 * gateway overhead).
 */
export function instrumentRequests(app: FastifyInstance, spanRoute?: SpanRoute): void {
  if (tracingStarted()) startSpansOnRequest(app);
  app.addHook('onResponse', (request, reply, done) => {
    const route = routeLabel(request);
    // Counted by the duration histogram, which platform_http_requests_total is read from.
    httpRequestDuration.observe([route, methodLabel(request.method), String(reply.statusCode)], reply.elapsedTime / 1000);
    const active = traceContexts.get(request);
    if (!active) return done();
    const span = trace.getSpan(active);
    // Outside a sampled trace the span records nothing: no name or attributes to build.
    if (span?.isRecording()) {
      const served = spanRoute?.(request) ?? route;
      span.updateName(`${methodLabel(request.method)} ${served}`);
      span.setAttributes({ 'http.route': served, 'http.response.status_code': reply.statusCode });
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span?.end();
    done();
  });
}

/**
 * A health probe that no caller's trace covers: as traces of their own, the probes would be
 * thousands of one-span traces an hour, burying the ones a person looks for. A probe sent with a
 * `traceparent` (someone following one) is traced as usual.
 */
function isUntracedHealthProbe(request: FastifyRequest): boolean {
  return request.headers.traceparent === undefined && isHealthProbePath(request.url);
}

/**
 * The route template a recorded request span is named after when the app's own route is not the
 * one that served it (the gateway's proxy prefixes: the service behind it knows the route);
 * undefined keeps the app's route. Asked only for spans that record.
 */
export type SpanRoute = (request: FastifyRequest) => string | undefined;

/** Starts each request's server span; a recorded one puts its ids on the request's log lines. */
function startSpansOnRequest(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (isUntracedHealthProbe(request)) return done();
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    // A caller's trace the sampler left out is handed on as it came (startChildSpan).
    const { span, context: active } = startChildSpan(tracer, methodLabel(request.method), { kind: SpanKind.SERVER, attributes: { 'http.request.method': methodLabel(request.method) } }, parent);
    traceContexts.set(request, active);
    if (span.isRecording()) addTraceIds(app, request, active);
    done();
  });
}

/**
 * Puts the trace's ids on the request's own logger (Fastify makes one per request). Added to it
 * rather than a child of it: pino rebuilds every level method for a child, and a child of the
 * per-request child cost about 15 µs a traced request (BENCHMARKS.md, tracing overhead).
 */
function addTraceIds(app: FastifyInstance, request: FastifyRequest, context: TraceContext): void {
  const log = request.log as Logger;
  if (log === app.log) request.log = log.child(traceLogFields(context));
  else log.setBindings(traceLogFields(context));
}

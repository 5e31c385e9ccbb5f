export { instrumentBus } from './bus-instrumentation';
export {
  actionBlockRuns,
  actionRuns,
  busConsumed,
  busConsumeDuration,
  busPublished,
  busRedeliveries,
  httpRequestDuration,
  httpRequests,
  loginThrottled,
  metricsRegistry,
  metricsText,
  outboxBacklog,
  realtimeStreams,
  storeSize,
  subjectFamily,
  visitorRateLimited,
} from './metrics';
export { startMetricsServer } from './metrics-server';
export { activeTraceIds } from './trace-ids';
export { startTracing, startTracingFromEnv, tracesRequested, tracingEnvSchema, type Tracing, type TracingEnv } from './tracing';

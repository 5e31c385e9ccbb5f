export { instrumentBus } from './bus-instrumentation';
export {
  actionBlockRuns,
  actionEventsDeferred,
  aiRateLimited,
  actionRuns,
  busConsumed,
  busConsumeDuration,
  busConsumerPending,
  busPublished,
  busRedeliveries,
  embeddedDataBytes,
  httpRequestDuration,
  loginThrottled,
  measureEmbeddedData,
  metricsRegistry,
  metricsText,
  outboxBacklog,
  eventOutboxWaiting,
  realtimeStreams,
  storeOperationDuration,
  subjectFamily,
  visitorRateLimited,
  gatewayRateLimited,
} from './metrics';
export { directoryBytes } from './directory-bytes';
export { inHttpClientSpan, urlSecretsRedaction } from './http-client-span';
export { startMetricsServer } from './metrics-server';
export { inStoreWriteSpan, instrumentStore } from './store-instrumentation';
export { inChildSpan, inRecordedTrace, recordFailure, startChildSpan, traceLogFields, type FailureRedaction, type TraceContext } from './trace-context';
export { tracingErrorReporter, type WarningLog } from './tracing-errors';
export { startTracing, startTracingFromEnv, tracesRequested, tracingStarted, tracingEnvSchema, type Tracing, type TracingEnv, type TracingReports } from './tracing';

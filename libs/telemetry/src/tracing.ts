import { propagation, trace } from '@opentelemetry/api';
import { globalErrorHandler, loggingErrorHandler, setGlobalErrorHandler, W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, type Sampler, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { z } from 'zod';
import { LogSpanProcessor, type SpanLogFields } from './log-span-processor';
import { otlpProtocolSchema, otlpSpanProcessor, tracesEndpoint } from './trace-exporter';
import { samplerFor, samplerNameSchema } from './trace-sampler';

/**
 * The standard OpenTelemetry variables this process reads. Traces are exported over OTLP/HTTP
 * (protobuf unless the protocol variables say `http/json`) to the endpoint given here, or to
 * the exporter's default with `OTEL_TRACES_EXPORTER=otlp` alone; the exporter itself reads the
 * headers and timeout variables (OTEL_EXPORTER_OTLP_*). `OTEL_TRACES_EXPORTER=console` writes
 * each span to the process's log instead (LogSpanProcessor).
 */
export const tracingEnvSchema = z.object({
  OTEL_SDK_DISABLED: z.enum(['true', 'false']).default('false'),
  OTEL_TRACES_EXPORTER: z.enum(['otlp', 'console', 'none']).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocolSchema.optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocolSchema.optional(),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  OTEL_TRACES_SAMPLER: samplerNameSchema.default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
});

export type TracingEnv = z.output<typeof tracingEnvSchema>;

/** Whether the environment asks for traces to be exported (or written to the log). */
export function tracesRequested(env: TracingEnv): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return env.OTEL_TRACES_EXPORTER === 'otlp' || env.OTEL_TRACES_EXPORTER === 'console' || env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined;
}

/** Whether startTracing's provider is registered (until its shutdown): without it every span is a no-op. */
let tracingOn = false;

/** Whether spans may record: lets per-request instrumentation skip building spans that could not. */
export function tracingStarted(): boolean {
  return tracingOn;
}

export interface Tracing {
  /** Sends the spans still buffered and unregisters the globals (a later start may register anew); never rejects: a failed last export is reported. */
  shutdown(): Promise<void>;
}

/**
 * Registers the process-wide tracer provider and the W3C trace-context propagator, feeding the
 * spans `sampler` records to `processor`. Until this runs, the API's tracers are no-ops: spans cost
 * a function call and nothing is propagated. No context manager: trace contexts are handed on
 * explicitly (trace-context.ts), so no async hook is ever turned on.
 */
export function startTracing(options: { serviceName: string; processor: SpanProcessor; sampler: Sampler; onError?: (error: unknown) => void }): Tracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
    spanProcessors: [options.processor],
    sampler: options.sampler,
  });
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  if (options.onError) setGlobalErrorHandler(options.onError);
  tracingOn = true;
  return {
    async shutdown() {
      tracingOn = false;
      try {
        await provider.shutdown();
      } catch (error) {
        // The last spans not exported (the SDK's processor rejects its flush): reported, never a
        // failed stop, and the globals are unregistered all the same.
        globalErrorHandler(error as Error);
      } finally {
        trace.disable();
        propagation.disable();
        if (options.onError) setGlobalErrorHandler(loggingErrorHandler());
      }
    },
  };
}

/** Where startTracingFromEnv reports: OpenTelemetry's own errors, and the spans of `OTEL_TRACES_EXPORTER=console`. */
export interface TracingReports {
  /** OpenTelemetry's errors, a failed export among them (tracingErrorReporter). */
  onError?: (error: unknown) => void;
  /** An ended span's log line (the process's logger); absent: a JSON line on standard output. */
  logSpan?: (fields: SpanLogFields, message: string) => void;
}

function spanLineOnStdout(fields: SpanLogFields, message: string): void {
  process.stdout.write(`${JSON.stringify({ ...fields, msg: message })}\n`);
}

/**
 * Starts tracing with the exporter the environment asks for (OTLP, or the log for `console`);
 * otherwise nothing.
 */
export function startTracingFromEnv(env: TracingEnv, defaultServiceName: string, reports: TracingReports = {}): Tracing | undefined {
  if (!tracesRequested(env)) return undefined;
  const processor =
    env.OTEL_TRACES_EXPORTER === 'console'
      ? new LogSpanProcessor(reports.logSpan ?? spanLineOnStdout)
      : otlpSpanProcessor(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf', tracesEndpoint(env));
  return startTracing({
    serviceName: env.OTEL_SERVICE_NAME ?? defaultServiceName,
    processor,
    sampler: samplerFor(env.OTEL_TRACES_SAMPLER, env.OTEL_TRACES_SAMPLER_ARG),
    ...(reports.onError ? { onError: reports.onError } : {}),
  });
}

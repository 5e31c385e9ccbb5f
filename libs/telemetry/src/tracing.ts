import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { z } from 'zod';

/**
 * The standard OpenTelemetry variables this process reads. Traces are exported over OTLP/HTTP
 * when an endpoint is given or `OTEL_TRACES_EXPORTER=otlp`; the exporter itself reads the
 * endpoint, headers and timeout variables (OTEL_EXPORTER_OTLP_*).
 */
export const tracingEnvSchema = z.object({
  OTEL_SDK_DISABLED: z.enum(['true', 'false']).default('false'),
  OTEL_TRACES_EXPORTER: z.enum(['otlp', 'none']).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
});

export type TracingEnv = z.output<typeof tracingEnvSchema>;

/** Whether the environment asks for traces to be exported. */
export function tracesRequested(env: TracingEnv): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return env.OTEL_TRACES_EXPORTER === 'otlp' || env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined;
}

export interface Tracing {
  /** Sends the spans still buffered and unregisters the globals (a later start may register anew). */
  shutdown(): Promise<void>;
}

/**
 * Registers the process-wide tracer provider, the AsyncLocalStorage context manager and the W3C
 * trace-context propagator, feeding finished spans to `processor`. Until this runs, the API's
 * tracers are no-ops: spans cost a function call and nothing is propagated.
 */
export function startTracing(options: { serviceName: string; processor: SpanProcessor }): Tracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
    spanProcessors: [options.processor],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return {
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** Starts tracing with the OTLP exporter when the environment asks for it; otherwise nothing. */
export function startTracingFromEnv(env: TracingEnv, defaultServiceName: string): Tracing | undefined {
  if (!tracesRequested(env)) return undefined;
  return startTracing({ serviceName: env.OTEL_SERVICE_NAME ?? defaultServiceName, processor: new BatchSpanProcessor(new OTLPTraceExporter()) });
}

import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExportResultCode } from '@opentelemetry/core';
import { BatchSpanProcessor, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { traceSpans } from './metrics';
import { OtlpProtobufSpanProcessor, otlpProtobufSender } from './otlp-protobuf-span-processor';

/** The OTLP/HTTP encodings this process can send; gRPC is not built in. */
export const otlpProtocolSchema = z.enum(['http/protobuf', 'http/json']);

export type OtlpProtocol = z.output<typeof otlpProtocolSchema>;

/**
 * The batching processor and OTLP/HTTP export for `protocol`, posting to `url` (unset: the
 * exporter's default, http://localhost:4318/v1/traces). Protobuf is the specification's default
 * and the cheaper one to run: 40% of JSON's bytes, each span encoded once as it ends
 * (otlp-protobuf-span-processor.ts). JSON goes through the SDK's BatchSpanProcessor and exporter.
 */
export function otlpSpanProcessor(protocol: OtlpProtocol, url: string | undefined): SpanProcessor {
  if (protocol === 'http/protobuf') return new OtlpProtobufSpanProcessor(otlpProtobufSender(url));
  return new BatchSpanProcessor(countedExports(new JsonTraceExporter(url === undefined ? {} : { url })));
}

/** The exporter with its outcomes counted in platform_trace_spans_total (the SDK's processor counts no drops of its own). */
function countedExports(exporter: SpanExporter): SpanExporter {
  return {
    export(spans, done) {
      exporter.export(spans, (result) => {
        traceSpans.inc({ outcome: result.code === ExportResultCode.SUCCESS ? 'exported' : 'failed' }, spans.length);
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

/** Where traces go: the traces endpoint as given, or `v1/traces` under the general one (the specification's rule). */
export function tracesEndpoint(env: { OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined; OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string | undefined }): string | undefined {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT === undefined) return undefined;
  return new URL('v1/traces', env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/?$/, '/')).href;
}

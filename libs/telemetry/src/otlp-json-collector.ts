import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

const attributesSchema = z.array(z.object({ key: z.string(), value: z.object({ stringValue: z.string().optional() }) })).default([]);

/** The part of an OTLP/HTTP JSON trace export (ExportTraceServiceRequest) a test looks at. */
const exportRequestSchema = z.object({
  resourceSpans: z.array(
    z.object({
      resource: z.object({ attributes: attributesSchema }),
      scopeSpans: z.array(
        z.object({
          scope: z.object({ name: z.string() }),
          spans: z.array(z.object({ traceId: z.string(), spanId: z.string(), parentSpanId: z.string().optional(), name: z.string(), kind: z.number().int() })),
        }),
      ),
    }),
  ),
});

/** One span as a process exported it. `kind` is OTLP's number: 2 server, 3 client, 4 producer, 5 consumer. */
export interface CollectedSpan {
  service: string;
  scope: string;
  traceId: string;
  spanId: string;
  /** Absent on a trace's root span. */
  parentSpanId: string | undefined;
  name: string;
  kind: number;
}

export interface OtlpJsonCollector {
  /** Base URL for OTEL_EXPORTER_OTLP_ENDPOINT (the exporters post to `/v1/traces`). */
  url: string;
  spans(): CollectedSpan[];
  close(): Promise<void>;
}

/**
 * A stand-in OTLP/HTTP collector for tests: keeps the spans every process posts in the JSON
 * encoding (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`), with the `service.name` of the process that
 * sent them. A body it cannot read is answered 400, so an exporter's mistake is not hidden.
 */
export async function startOtlpJsonCollector(): Promise<OtlpJsonCollector> {
  const collected: CollectedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      const parsed = exportRequestSchema.safeParse(body);
      if (request.url !== '/v1/traces' || !parsed.success) {
        response.writeHead(400, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      for (const { resource, scopeSpans } of parsed.data.resourceSpans) {
        const service = resource.attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue ?? 'unknown';
        for (const { scope, spans } of scopeSpans) {
          for (const span of spans) collected.push({ service, scope: scope.name, ...span, parentSpanId: span.parentSpanId || undefined });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => [...collected],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

import { TraceFlags } from '@opentelemetry/api';
import { ExportResultCode, getNumberFromEnv, globalErrorHandler, type ExportResult } from '@opentelemetry/core';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { traceSpans } from './metrics';
import { TraceBatchEncoder } from './otlp-protobuf-encoder';

/** A batch as it leaves: the export request's bytes and how many spans they hold. */
interface EncodedBatch {
  readonly bytes: Uint8Array;
  readonly spanCount: number;
}

/** The batching limits, the BatchSpanProcessor's (OTEL_BSP_* and the specification's defaults). */
export interface BatchLimits {
  maxExportBatchSize: number;
  maxQueueSize: number;
  scheduledDelayMillis: number;
  exportTimeoutMillis: number;
}

export function batchLimitsFromEnv(): BatchLimits {
  const maxQueueSize = getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE') ?? 2048;
  return {
    maxQueueSize,
    maxExportBatchSize: Math.min(getNumberFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE') ?? 512, maxQueueSize),
    scheduledDelayMillis: getNumberFromEnv('OTEL_BSP_SCHEDULE_DELAY') ?? 5000,
    exportTimeoutMillis: getNumberFromEnv('OTEL_BSP_EXPORT_TIMEOUT') ?? 30000,
  };
}

/** What batches are handed to: the OTLP/HTTP transport in production, a recorder in tests. */
export interface BatchTransport {
  send(batch: EncodedBatch, done: (result: ExportResult) => void): void;
  shutdown(): Promise<void>;
}

/**
 * The OTLP/HTTP protobuf transport of @opentelemetry/exporter-trace-otlp-proto (the same retries,
 * timeout, headers, compression and OTEL_EXPORTER_OTLP_* variables), posting bytes already encoded.
 */
export function otlpProtobufSender(url: string | undefined): BatchTransport {
  const options = convertLegacyHttpOptions(url === undefined ? {} : { url }, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' });
  const delegate = createOtlpHttpExportDelegate<EncodedBatch, ReturnType<typeof ProtobufTraceSerializer.deserializeResponse>>(
    options,
    { serializeRequest: (batch) => batch.bytes, deserializeResponse: (response) => ProtobufTraceSerializer.deserializeResponse(response) },
    'otlp_http_span_exporter',
    { name: 'span', countItems: (batch) => batch.spanCount },
    undefined,
  );
  return { send: (batch, done) => delegate.export(batch, done), shutdown: () => delegate.shutdown() };
}

/**
 * The batching span processor of the OTLP protobuf export: as the SDK's BatchSpanProcessor (the
 * sampled spans only, batches of OTEL_BSP_MAX_EXPORT_BATCH_SIZE or what the schedule delay
 * gathered, one export at a time, spans past the queue size dropped), but each span is encoded as
 * it ends and the batch holds its bytes. The SDK's processor keeps the span objects until their
 * export, long enough for the young generation's collections to copy them and promote them: most
 * of what a traced PATCH spent on garbage collection (docs/observability.md, Overhead).
 */
export class OtlpProtobufSpanProcessor implements SpanProcessor {
  private readonly encoder = new TraceBatchEncoder();
  private readonly waiting: EncodedBatch[] = [];
  private waitingSpans = 0;
  private exporting = false;
  private timer: NodeJS.Timeout | undefined;
  private dropped = 0;
  private stopped = false;
  private readonly idle: Array<() => void> = [];

  constructor(
    private readonly sender: BatchTransport,
    private readonly limits: BatchLimits = batchLimitsFromEnv(),
  ) {}

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.stopped || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.waitingSpans + this.encoder.spanCount >= this.limits.maxQueueSize) {
      this.dropped += 1;
      traceSpans.inc({ outcome: 'dropped' });
      return;
    }
    if (this.dropped > 0) {
      globalErrorHandler(new Error(`Dropped ${this.dropped} spans because maxQueueSize was reached`));
      this.dropped = 0;
    }
    try {
      this.encoder.add(span);
    } catch (error) {
      // Ending a span never throws into the code that ends it (OpenTelemetry's error handling
      // principle): a span that cannot be encoded is lost, counted and reported.
      traceSpans.inc({ outcome: 'failed' });
      globalErrorHandler(error as Error);
      return;
    }
    if (this.encoder.spanCount >= this.limits.maxExportBatchSize) this.seal();
    else this.timer ??= setTimeout(() => this.seal(), this.limits.scheduledDelayMillis).unref();
  }

  /** Sends every span ended so far and resolves once their exports are done. */
  forceFlush(): Promise<void> {
    this.seal();
    if (!this.exporting) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  async shutdown(): Promise<void> {
    if (this.stopped) return;
    await this.forceFlush();
    this.stopped = true;
    await this.sender.shutdown();
  }

  /** Closes the batch being gathered and queues it for export. */
  private seal(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.encoder.spanCount === 0) return;
    const spanCount = this.encoder.spanCount;
    this.waiting.push({ bytes: this.encoder.take(), spanCount });
    this.waitingSpans += spanCount;
    this.exportNext();
  }

  private exportNext(): void {
    if (this.exporting) return;
    const batch = this.waiting.shift();
    if (!batch) {
      for (const resolve of this.idle.splice(0)) resolve();
      return;
    }
    this.waitingSpans -= batch.spanCount;
    this.exporting = true;
    let settled = false;
    const finish = (error: Error | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      traceSpans.inc({ outcome: error ? 'failed' : 'exported' }, batch.spanCount);
      if (error) globalErrorHandler(error);
      this.exporting = false;
      this.exportNext();
    };
    // As the SDK's processor: past the export timeout the next batch goes without waiting.
    const timeout = setTimeout(() => finish(new Error('Timeout')), this.limits.exportTimeoutMillis).unref();
    this.sender.send(batch, (result) => finish(result.error ?? (result.code === ExportResultCode.SUCCESS ? undefined : new Error('span export failed'))));
  }
}

import { ExportResultCode, setGlobalErrorHandler, type ExportResult } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, BasicTracerProvider, InMemorySpanExporter, SamplingDecision, SimpleSpanProcessor, type Sampler, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { traceSpans } from './metrics';
import { OtlpProtobufSpanProcessor, type BatchLimits } from './otlp-protobuf-span-processor';

interface Sent {
  bytes: Buffer;
  spanCount: number;
  done(result: ExportResult): void;
}

/** A processor whose batches are kept here, answered by the test; the same spans also kept as objects. */
function harness(limits: Partial<BatchLimits>, options: { answer?: 'at once' | 'later'; sampler?: Sampler } = {}) {
  const sent: Sent[] = [];
  let shutDown = false;
  const processor = new OtlpProtobufSpanProcessor(
    {
      send: (batch, done) => {
        sent.push({ bytes: Buffer.from(batch.bytes), spanCount: batch.spanCount, done });
        if ((options.answer ?? 'at once') === 'at once') done({ code: ExportResultCode.SUCCESS });
      },
      shutdown: async () => {
        shutDown = true;
      },
    },
    { maxExportBatchSize: 512, maxQueueSize: 2048, scheduledDelayMillis: 60_000, exportTimeoutMillis: 60_000, ...limits },
  );
  const kept = new InMemorySpanExporter();
  let ended = 0;
  const countEnded: SpanProcessor = { onStart: () => undefined, onEnd: () => (ended += 1), forceFlush: async () => undefined, shutdown: async () => undefined };
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'platform' }),
    spanProcessors: [new SimpleSpanProcessor(kept), countEnded, processor],
    sampler: options.sampler ?? new AlwaysOnSampler(),
  });
  const tracer = provider.getTracer('test');
  return {
    processor,
    sent,
    kept,
    end: (count: number, name = 'work') => {
      for (let index = 0; index < count; index += 1) tracer.startSpan(`${name} ${index}`, { attributes: { index } }).end();
    },
    shutDown: () => shutDown,
    ended: () => ended,
  };
}

/** platform_trace_spans_total for one outcome. */
async function counted(outcome: string): Promise<number> {
  return (await traceSpans.get()).values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const errors: unknown[] = [];
afterEach(() => {
  errors.length = 0;
  setGlobalErrorHandler((error) => errors.push(error));
});
setGlobalErrorHandler((error) => errors.push(error));

describe('the OTLP protobuf span processor', () => {
  it('sends a batch as soon as it is full, as the bytes the reference encoder writes for those spans', () => {
    const { sent, kept, end } = harness({ maxExportBatchSize: 3 });
    end(7);
    expect(sent.map((batch) => batch.spanCount)).toEqual([3, 3]);
    const spans = kept.getFinishedSpans();
    expect(sent[0]!.bytes).toEqual(Buffer.from(ProtobufTraceSerializer.serializeRequest(spans.slice(0, 3))!));
    expect(sent[1]!.bytes).toEqual(Buffer.from(ProtobufTraceSerializer.serializeRequest(spans.slice(3, 6))!));
  });

  it('sends what the schedule delay gathered, and everything on a flush', async () => {
    const { processor, sent, kept, end } = harness({ scheduledDelayMillis: 30 });
    end(2);
    expect(sent).toHaveLength(0);
    await until(() => sent.length === 1);
    expect(sent.map((batch) => batch.spanCount)).toEqual([2]);
    end(1);
    await processor.forceFlush();
    expect(sent.map((batch) => batch.spanCount)).toEqual([2, 1]);
    expect(sent[1]!.bytes).toEqual(Buffer.from(ProtobufTraceSerializer.serializeRequest(kept.getFinishedSpans().slice(2))!));
  });

  it('exports spans of sampled traces only', async () => {
    // Recorded but not sampled: the span is ended into processors, with the sampled flag clear.
    const recordOnly: Sampler = { shouldSample: () => ({ decision: SamplingDecision.RECORD }), toString: () => 'record only' };
    const { processor, sent, end, ended } = harness({}, { sampler: recordOnly });
    end(3);
    await processor.forceFlush();
    expect(ended()).toBe(3);
    expect(sent).toHaveLength(0);
  });

  it('has one export in flight at a time, and a flush waits for every export', async () => {
    const { processor, sent, end } = harness({ maxExportBatchSize: 2 }, { answer: 'later' });
    end(6);
    expect(sent).toHaveLength(1);
    let flushed = false;
    const flush = processor.forceFlush().then(() => (flushed = true));
    sent[0]!.done({ code: ExportResultCode.SUCCESS });
    expect(sent).toHaveLength(2);
    sent[1]!.done({ code: ExportResultCode.SUCCESS });
    await Promise.resolve();
    expect(flushed).toBe(false);
    sent[2]!.done({ code: ExportResultCode.SUCCESS });
    await flush;
    expect(sent.map((batch) => batch.spanCount)).toEqual([2, 2, 2]);
  });

  it('drops spans past the queue size while exports are behind, counts them, and says how many once it takes them again', async () => {
    const droppedBefore = await counted('dropped');
    const { sent, end } = harness({ maxExportBatchSize: 2, maxQueueSize: 4 }, { answer: 'later' });
    // The first batch is in flight; two batches fit in the queue behind it.
    end(6);
    end(3, 'dropped');
    expect(errors).toHaveLength(0);
    sent[0]!.done({ code: ExportResultCode.SUCCESS });
    end(1, 'accepted');
    expect(errors.map(String)).toEqual(['Error: Dropped 3 spans because maxQueueSize was reached']);
    expect((await counted('dropped')) - droppedBefore).toBe(3);
    sent[1]!.done({ code: ExportResultCode.SUCCESS });
    sent[2]!.done({ code: ExportResultCode.SUCCESS });
    expect(sent.map((batch) => batch.spanCount)).toEqual([2, 2, 2]);
  });

  it('reports a failed export and goes on with the next batch; an export past its timeout is not waited for', async () => {
    const before = { failed: await counted('failed'), exported: await counted('exported') };
    const { sent, end } = harness({ maxExportBatchSize: 1, exportTimeoutMillis: 30 }, { answer: 'later' });
    end(3);
    sent[0]!.done({ code: ExportResultCode.FAILED, error: new Error('collector refused') });
    expect(errors.map(String)).toEqual(['Error: collector refused']);
    expect(sent).toHaveLength(2);
    await until(() => sent.length === 3);
    sent[2]!.done({ code: ExportResultCode.SUCCESS });
    expect(errors.map(String)).toEqual(['Error: collector refused', 'Error: Timeout']);
    // A late answer of the timed-out export changes nothing.
    sent[1]!.done({ code: ExportResultCode.FAILED, error: new Error('late') });
    expect(errors).toHaveLength(2);
    // The refused and the timed-out span failed, the third went out; the late answer counts nothing.
    expect({ failed: (await counted('failed')) - before.failed, exported: (await counted('exported')) - before.exported }).toEqual({ failed: 2, exported: 1 });
  });

  it('reports and counts a span it cannot encode, never throws to the code that ended it, and keeps the batch whole', async () => {
    const before = await counted('failed');
    const { processor, sent, kept, end } = harness({});
    end(1, 'before');
    // A span whose attributes cannot be read: its ids and name are written before they fail.
    const unreadable = Object.create(kept.getFinishedSpans()[0]!, {
      attributes: {
        get() {
          throw new Error('attributes unreadable');
        },
      },
    });
    expect(() => processor.onEnd(unreadable)).not.toThrow();
    end(1, 'after');
    await processor.forceFlush();
    expect(errors.map(String)).toEqual(['Error: attributes unreadable']);
    expect((await counted('failed')) - before).toBe(1);
    expect(sent.map((batch) => batch.spanCount)).toEqual([2]);
    expect(sent[0]!.bytes).toEqual(Buffer.from(ProtobufTraceSerializer.serializeRequest(kept.getFinishedSpans())!));
  });

  it('sends the rest at shutdown, shuts the transport down, and takes no span after it', async () => {
    const { processor, sent, end, shutDown } = harness({});
    end(2);
    await processor.shutdown();
    expect(sent.map((batch) => batch.spanCount)).toEqual([2]);
    expect(shutDown()).toBe(true);
    end(1);
    await processor.forceFlush();
    expect(sent).toHaveLength(1);
  });
});

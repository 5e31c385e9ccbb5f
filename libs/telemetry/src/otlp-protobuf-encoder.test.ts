import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Attributes } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { encodeTraceExportRequest } from './otlp-protobuf-encoder';

/** Finished spans of a provider of its own (nothing registered globally), made by `record`. */
function spansOf(serviceName: string, record: (provider: BasicTracerProvider) => void): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': serviceName, 'host.cores': 2 }), spanProcessors: [new SimpleSpanProcessor(exporter)] });
  record(provider);
  return exporter.getFinishedSpans();
}

const everyAttributeKind: Attributes = {
  ascii: 'POST /api/projects/:projectId/types/:typeId/data',
  unicode: 'Grüße, 世界 🌍',
  long: 'x'.repeat(300),
  empty: '',
  yes: true,
  no: false,
  zero: 0,
  small: 42,
  negative: -7,
  beyond32Bits: 2 ** 40 + 3,
  negativeBeyond32Bits: -(2 ** 40) - 3,
  fraction: 1.5,
  notANumber: Number.NaN,
  strings: ['a', 'ü', ''],
  numbers: [1, -2, 3.25],
  booleans: [true, false],
};

function varied(provider: BasicTracerProvider): void {
  const tracer = provider.getTracer('http', '1.2.3');
  const store = provider.getTracer('store');
  const remoteParent = trace.setSpanContext(ROOT_CONTEXT, { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED, isRemote: true, traceState: new TraceState('vendor=value,other=1') });
  const server = tracer.startSpan('PATCH /api/projects/:projectId', { kind: SpanKind.SERVER, attributes: everyAttributeKind }, remoteParent);
  const child = store.startSpan('store updateOne', { kind: SpanKind.CLIENT, attributes: { 'db.collection.name': 'p_1_tasks' }, links: [{ context: server.spanContext(), attributes: { reason: 'follows' } }, { context: { traceId: 'ABCDEF0123456789ABCDEF0123456789', spanId: '0123456789ABCDEF', traceFlags: TraceFlags.NONE } }] }, trace.setSpan(ROOT_CONTEXT, server));
  child.addEvent('outbox pull started', { 'platform.outbox.revision': 3 });
  child.addEvent('no attributes');
  child.recordException(new Error('disk full'));
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'écrit à moitié' });
  child.end();
  // Times far from now: seconds beyond 32 bits' worth of nanoseconds, and the largest nanosecond part.
  const timed = tracer.startSpan('timed', { kind: SpanKind.INTERNAL, startTime: [1_795_588_594, 999_999_999] });
  timed.end([4_102_444_800, 1]);
  tracer.startSpan('producer', { kind: SpanKind.PRODUCER }).end();
  tracer.startSpan('consumer', { kind: SpanKind.CONSUMER }).end();
  server.setStatus({ code: SpanStatusCode.OK });
  server.end();
}

describe('the OTLP protobuf encoder', () => {
  it('writes the bytes of the reference encoder (@opentelemetry/otlp-transformer) for every field a span can carry', () => {
    const spans = spansOf('platform', varied);
    expect(spans).toHaveLength(5);
    expect(Buffer.from(encodeTraceExportRequest(spans))).toEqual(Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!));
  });

  it('groups spans by resource and scope as the reference does', () => {
    const spans = [...spansOf('platform-data', varied), ...spansOf('platform-gateway', varied)];
    expect(Buffer.from(encodeTraceExportRequest(spans))).toEqual(Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!));
  });

  it('grows past its first guess and writes lengths of several bytes (a batch of long spans)', () => {
    const spans = spansOf('platform', (provider) => {
      const tracer = provider.getTracer('bulk');
      for (let index = 0; index < 600; index += 1) tracer.startSpan(`span ${index}`, { attributes: { payload: 'y'.repeat(200 + index), index } }).end();
    });
    const encoded = encodeTraceExportRequest(spans);
    expect(encoded.length).toBeGreaterThan(600 * 384);
    expect(Buffer.from(encoded)).toEqual(Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!));
  });

  it('encodes an empty batch as the empty message', () => {
    expect(encodeTraceExportRequest([])).toHaveLength(0);
  });
});

import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AlwaysOnSampler, BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { LogSpanProcessor, type SpanLogFields } from './log-span-processor';

function tracerWritingTo(lines: Array<{ fields: SpanLogFields; message: string }>) {
  const provider = new BasicTracerProvider({ sampler: new AlwaysOnSampler(), spanProcessors: [new LogSpanProcessor((fields, message) => lines.push({ fields, message }))] });
  return provider.getTracer('test');
}

describe('LogSpanProcessor (OTEL_TRACES_EXPORTER=console)', () => {
  it('writes each span as it ends: its trace and parent ids, kind, duration and attributes', () => {
    const lines: Array<{ fields: SpanLogFields; message: string }> = [];
    const tracer = tracerWritingTo(lines);
    const parent = tracer.startSpan('POST /api/projects/:projectId/types/:typeId/data', { kind: SpanKind.SERVER, attributes: { 'http.route': '/api/projects/:projectId/types/:typeId/data' } });
    const child = tracer.startSpan('store updateOne', { kind: SpanKind.CLIENT }, trace.setSpan(ROOT_CONTEXT, parent));
    expect(lines).toEqual([]);
    child.end();
    parent.end();
    const [childLine, parentLine] = lines;
    expect(childLine!.message).toMatch(/^span store updateOne \d+(\.\d)? ms$/);
    expect(childLine!.fields).toMatchObject({ trace_id: parent.spanContext().traceId, span_id: child.spanContext().spanId, parent_span_id: parent.spanContext().spanId, kind: 'client' });
    expect(childLine!.fields.attributes).toBeUndefined();
    expect(parentLine!.fields).toMatchObject({ trace_id: parent.spanContext().traceId, kind: 'server', attributes: { 'http.route': '/api/projects/:projectId/types/:typeId/data' } });
    expect(parentLine!.fields.parent_span_id).toBeUndefined();
    expect(parentLine!.fields.ms).toBeGreaterThanOrEqual(0);
    expect(parentLine!.fields.error).toBeUndefined();
  });

  it('marks a span that ended in error, with its message', () => {
    const lines: Array<{ fields: SpanLogFields; message: string }> = [];
    const span = tracerWritingTo(lines).startSpan('block call-webhook');
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'the receiver answered 502' });
    span.end();
    expect(lines[0]!.fields).toMatchObject({ kind: 'internal', error: 'the receiver answered 502' });
  });
});

import { SpanKind, SpanStatusCode, TraceFlags } from '@opentelemetry/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inHttpClientSpan } from './http-client-span';
import { callersTrace, startMemoryTracing } from './testing';

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const hook = new URL('https://hooks.example.org/orders?token=secret');

describe('an outgoing HTTP call in a trace', () => {
  let tracing: ReturnType<typeof startMemoryTracing>;
  beforeAll(() => {
    tracing = startMemoryTracing();
  });
  afterAll(async () => {
    await tracing.shutdown();
  });
  beforeEach(() => tracing.reset());

  it('is a client span under a recorded parent, and sends that span\'s traceparent', async () => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const answer = await inHttpClientSpan(callersTrace(TraceFlags.SAMPLED), 'POST', hook, headers, async () => ({ status: 202, sentWith: { ...headers } }));
    const [span] = tracing.spans();
    expect(span).toMatchObject({ name: 'POST', kind: SpanKind.CLIENT, status: { code: SpanStatusCode.UNSET } });
    expect(span?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(span?.attributes).toEqual({ 'http.request.method': 'POST', 'server.address': 'hooks.example.org', 'server.port': 443, 'url.full': 'https://hooks.example.org/orders', 'http.response.status_code': 202 });
    // The headers were complete before the call went out.
    expect(answer.sentWith).toEqual({ 'content-type': 'application/json', traceparent: `00-${traceId}-${span?.spanContext().spanId}-01` });
  });

  it('marks the span failed on an error answer and on a call that throws', async () => {
    await inHttpClientSpan(callersTrace(TraceFlags.SAMPLED), 'POST', new URL('http://127.0.0.1:8080/fail'), {}, async () => ({ status: 500 }));
    await expect(inHttpClientSpan(callersTrace(TraceFlags.SAMPLED), 'POST', hook, {}, () => Promise.reject(new Error('connection refused')))).rejects.toThrow('connection refused');
    const [errorAnswer, thrown] = tracing.spans();
    expect(errorAnswer?.status.code).toBe(SpanStatusCode.ERROR);
    expect(errorAnswer?.attributes).toMatchObject({ 'server.port': 8080, 'http.response.status_code': 500 });
    expect(thrown?.status.code).toBe(SpanStatusCode.ERROR);
    expect(thrown?.events.map((event) => event.name)).toEqual(['exception']);
  });

  it('makes no span under a trace left out, but hands that trace on; adds nothing outside a trace', async () => {
    const leftOut: Record<string, string> = {};
    await inHttpClientSpan(callersTrace(TraceFlags.NONE), 'POST', hook, leftOut, async () => ({ status: 200 }));
    expect(leftOut).toEqual({ traceparent: `00-${traceId}-00f067aa0ba902b7-00` });
    const untraced: Record<string, string> = {};
    await inHttpClientSpan(undefined, 'POST', hook, untraced, async () => ({ status: 200 }));
    expect(untraced).toEqual({});
    expect(tracing.spans()).toHaveLength(0);
  });
});

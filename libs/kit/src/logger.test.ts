import { Writable } from 'node:stream';
import { startMemoryTracing } from '@platform/telemetry/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from './app';
import { createLogger } from './logger';

function lines(): { destination: Writable; text(): string } {
  let text = '';
  const destination = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { destination, text: () => text };
}

describe('createLogger', () => {
  let tracing: { shutdown(): Promise<void> } | undefined;
  afterEach(async () => {
    await tracing?.shutdown();
    tracing = undefined;
  });

  it('writes JSON lines by default, without trace ids outside a trace', () => {
    const out = lines();
    createLogger({ name: 'data', destination: out.destination }).info({ collection: 'c1' }, 'written');
    const line = JSON.parse(out.text());
    expect(line).toMatchObject({ name: 'data', collection: 'c1', msg: 'written' });
    expect(line).not.toHaveProperty('trace_id');
  });

  it('puts the request span\'s trace_id and span_id on the lines a traced request writes (its own and the access line), and none on others', async () => {
    tracing = startMemoryTracing();
    const out = lines();
    const app = await createApp({ logger: createLogger({ destination: out.destination }), title: 'test', openapi: false });
    app.get('/work', async (request) => {
      request.log.info('inside');
      return { ok: true };
    });
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect((await app.inject({ method: 'GET', url: '/work', headers: { traceparent } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/work' })).statusCode).toBe(200);
    app.log.info('outside');
    await app.close();
    const written = out.text().trim().split('\n').map((text) => JSON.parse(text) as Record<string, unknown>);
    const inside = written.find((line) => line.msg === 'inside');
    const access = written.find((line) => line.msg === 'request');
    expect(inside).toMatchObject({ trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
    // The request's own span, not the caller's.
    expect(inside?.span_id).not.toBe('00f067aa0ba902b7');
    expect(access).toMatchObject({ trace_id: inside?.trace_id, span_id: inside?.span_id });
    expect(written.find((line) => line.msg === 'outside')).not.toHaveProperty('trace_id');
    // The next request (a trace of its own) carries its own ids, not the first one's.
    const insideLines = written.filter((line) => line.msg === 'inside');
    expect(insideLines).toHaveLength(2);
    expect(insideLines[1]).toMatchObject({ trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(insideLines[1]?.trace_id).not.toBe(inside?.trace_id);
    const secondRaw = out.text().trim().split('\n').filter((text) => text.includes('"msg":"inside"'))[1];
    expect(secondRaw?.match(/"trace_id"/g)).toHaveLength(1);
  });

  it('writes the access line of a health probe that answered well at debug, and of one that failed at info', async () => {
    const out = lines();
    const app = await createApp({ logger: createLogger({ destination: out.destination }), title: 'test', openapi: false });
    let healthy = true;
    app.get('/api/health', async (_request, reply) => reply.code(healthy ? 200 : 503).send({ status: healthy ? 'ok' : 'degraded' }));
    app.get('/api/health/:service', async () => ({ status: 'ok' }));
    app.get('/api/healthy-looking', async () => ({ ok: true }));
    for (const url of ['/api/health', '/api/health/data', '/api/health?detail=1', '/api/healthy-looking']) expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
    healthy = false;
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);
    await app.close();
    const access = out.text().trim().split('\n').map((text) => JSON.parse(text) as Record<string, unknown>).filter((line) => line.msg === 'request');
    expect(access.map((line) => [line.url, line.status])).toEqual([
      ['/api/healthy-looking', 200],
      ['/api/health', 503],
    ]);

    const debugOut = lines();
    const debugApp = await createApp({ logger: createLogger({ destination: debugOut.destination, level: 'debug' }), title: 'test', openapi: false });
    debugApp.get('/api/health', async () => ({ status: 'ok' }));
    expect((await debugApp.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    await debugApp.close();
    const debugAccess = debugOut.text().trim().split('\n').map((text) => JSON.parse(text) as Record<string, unknown>).filter((line) => line.msg === 'request');
    expect(debugAccess).toEqual([expect.objectContaining({ url: '/api/health', status: 200, level: 20 })]);
  });

  it('pretty-prints for a person when asked, with the level, the message and the fields', () => {
    const out = lines();
    createLogger({ name: 'audit', destination: out.destination, pretty: true }).warn({ collection: 'c1' }, 'slow write');
    const text = out.text();
    expect(text.startsWith('{')).toBe(false);
    expect(text).toMatch(/WARN/);
    expect(text).toContain('slow write');
    expect(text).toMatch(/collection: "c1"/);
  });
});

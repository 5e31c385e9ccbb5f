import { Writable } from 'node:stream';
import { trace } from '@opentelemetry/api';
import { startMemoryTracing } from '@platform/telemetry/testing';
import { afterEach, describe, expect, it } from 'vitest';
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

  it('puts the active span\'s trace_id and span_id on lines written inside a trace', () => {
    tracing = startMemoryTracing();
    const out = lines();
    const logger = createLogger({ destination: out.destination });
    const ids = trace.getTracer('test').startActiveSpan('work', (span) => {
      logger.info('inside');
      span.end();
      return span.spanContext();
    });
    logger.info('outside');
    const [inside, outside] = out.text().trim().split('\n').map((text) => JSON.parse(text));
    expect(inside).toMatchObject({ msg: 'inside', trace_id: ids.traceId, span_id: ids.spanId });
    expect(outside).not.toHaveProperty('trace_id');
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

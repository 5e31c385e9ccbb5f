import { Writable } from 'node:stream';
import { createInProcessBus } from '@platform/bus';
import { createLogger } from '@platform/kit';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { startValidatedConsumer } from './validated-consumer';

describe('startValidatedConsumer', () => {
  it('hands on what its contract takes, logs and acknowledges what it does not, and takes again what its handler failed', async () => {
    const bus = createInProcessBus();
    let logged = '';
    const logger = createLogger({ level: 'info', destination: new Writable({ write: (chunk, _encoding, done) => ((logged += String(chunk)), done()) }) });
    const handled: number[] = [];
    let failOnce = true;
    await startValidatedConsumer(
      { bus, logger },
      {
        durable: 'test',
        filter: 'things.>',
        schema: z.object({ n: z.number() }),
        what: 'thing',
        handle: async ({ n }) => {
          if (n === 2 && failOnce) {
            failOnce = false;
            throw new Error('store unavailable');
          }
          handled.push(n);
        },
      },
    );
    try {
      await bus.publish('things.a', { n: 1 }, { msgId: 'a' });
      await bus.publish('things.b', { n: 'two' }, { msgId: 'b' });
      await bus.publish('things.c', { n: 2 }, { msgId: 'c' });
      await bus.publish('things.d', { n: 3 }, { msgId: 'd' });
      await vi.waitFor(() => expect(handled.sort()).toEqual([1, 2, 3]), { timeout: 10_000 });
      expect(logged).toContain('malformed thing skipped');
      expect(logged.match(/malformed thing skipped/g)).toHaveLength(1);
    } finally {
      await bus.close();
    }
  });
});

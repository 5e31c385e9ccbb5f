import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyValue } from './port';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The time to live of keys that must still be there after a few writes: long enough for writes
 * that wait for the disk (the embedded adapter syncs each group) on a loaded machine, where
 * 60 ms windows lapsed before the next line of the test ran.
 */
const WINDOW_MS = 1_000;

/** The one KeyValue contract; every adapter passes it unchanged. Each test uses its own key space. */
export function runKeyValueContract(adapter: string, open: () => Promise<KeyValue>): void {
  describe(`KeyValue contract: ${adapter}`, () => {
    let kv: KeyValue;
    const space = () => `t:${randomUUID()}:`;
    beforeAll(async () => {
      kv = await open();
    });
    afterAll(async () => {
      await kv?.close();
    });

    it('answers its kind and a ping', async () => {
      expect(['redis', 'embedded', 'memory']).toContain(kv.kind);
      expect(await kv.ping()).toBe(true);
    });

    it('sets, gets, overwrites and deletes', async () => {
      const key = `${space()}k`;
      expect(await kv.get(key)).toBeNull();
      expect(await kv.set(key, 'one')).toBe(true);
      expect(await kv.set(key, 'two')).toBe(true);
      expect(await kv.get(key)).toBe('two');
      expect(await kv.delete(key)).toBe(true);
      expect(await kv.delete(key)).toBe(false);
      expect(await kv.get(key)).toBeNull();
    });

    it('sets only if absent, like a lock', async () => {
      const key = `${space()}lock`;
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => kv.set(key, `holder${i}`, { onlyIfAbsent: true })));
      expect(answers.filter(Boolean)).toHaveLength(1);
      expect(await kv.get(key)).toBe(`holder${answers.indexOf(true)}`);
    });

    it('sets only over the value read: of rewrites of one read, one wins, and none over a later write', async () => {
      const key = `${space()}record`;
      expect(await kv.set(key, 'wide', { onlyIfValue: 'never stored' })).toBe(false);
      expect(await kv.get(key)).toBeNull();
      await kv.set(key, 'wide');
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => kv.set(key, `rewrite${i}`, { onlyIfValue: 'wide' })));
      expect(answers.filter(Boolean)).toHaveLength(1);
      const winner = `rewrite${answers.indexOf(true)}`;
      expect(await kv.get(key)).toBe(winner);
      expect(await kv.set(key, 'stale', { onlyIfValue: 'wide' })).toBe(false);
      expect(await kv.set(key, 'short-lived', { ttlMs: WINDOW_MS, onlyIfValue: winner })).toBe(true);
      await pause(WINDOW_MS + 100);
      expect(await kv.get(key)).toBeNull();
    });

    it('sets only if present: a rewrite brings back no key deleted before it', async () => {
      const key = `${space()}session`;
      expect(await kv.set(key, 'rewritten', { onlyIfPresent: true })).toBe(false);
      expect(await kv.get(key)).toBeNull();
      await kv.set(key, 'first');
      expect(await kv.set(key, 'second', { ttlMs: 60_000, onlyIfPresent: true })).toBe(true);
      expect(await kv.get(key)).toBe('second');
      await kv.delete(key);
      expect(await kv.set(key, 'third', { onlyIfPresent: true })).toBe(false);
      expect(await kv.get(key)).toBeNull();
    });

    it('expires a key after its time to live', async () => {
      const key = `${space()}short`;
      await kv.set(key, 'v', { ttlMs: WINDOW_MS });
      await kv.set(`${key}-long`, 'v', { ttlMs: 60_000 });
      expect(await kv.get(key)).toBe('v');
      await pause(WINDOW_MS + 100);
      expect(await kv.get(key)).toBeNull();
      expect(await kv.set(key, 'again', { ttlMs: 60_000, onlyIfAbsent: true })).toBe(true);
      expect(await kv.get(`${key}-long`)).toBe('v');
    });

    it('increments a counter atomically within a fixed window', async () => {
      const key = `${space()}counter`;
      const values = await Promise.all(Array.from({ length: 20 }, () => kv.increment(key, { ttlMs: WINDOW_MS })));
      expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      await pause(60);
      // A later increment keeps the window the first one opened, whatever time to live it names.
      expect(await kv.increment(key, { ttlMs: 60_000 })).toBe(21);
      await pause(WINDOW_MS);
      expect(await kv.get(key)).toBeNull();
      expect(await kv.increment(key, { ttlMs: 60_000 })).toBe(1);
    });

    it('adds a given step, negative to give a count back, keeping the window', async () => {
      const key = `${space()}refund`;
      expect(await kv.increment(key, { ttlMs: WINDOW_MS, by: 3 })).toBe(3);
      expect(await kv.increment(key, { ttlMs: 60_000, by: -1 })).toBe(2);
      const parallel = await Promise.all(Array.from({ length: 10 }, (_, i) => kv.increment(key, { ttlMs: 60_000, by: i % 2 === 0 ? 1 : -1 })));
      expect(parallel).toHaveLength(10);
      expect(await kv.get(key)).toBe('2');
      await pause(WINDOW_MS + 100);
      expect(await kv.get(key)).toBeNull();
    });

    it('gives a count back only to a live counter: an ended window is not reopened below zero', async () => {
      const key = `${space()}late-refund`;
      expect(await kv.increment(key, { ttlMs: 60_000, by: -1, onlyIfPresent: true })).toBe(0);
      expect(await kv.get(key)).toBeNull();
      expect(await kv.increment(key, { ttlMs: WINDOW_MS, by: 2 })).toBe(2);
      expect(await kv.increment(key, { ttlMs: 60_000, by: -1, onlyIfPresent: true })).toBe(1);
      await pause(WINDOW_MS + 100);
      expect(await kv.increment(key, { ttlMs: 60_000, by: -1, onlyIfPresent: true })).toBe(0);
      expect(await kv.get(key)).toBeNull();
      expect(await kv.increment(key, { ttlMs: 60_000 })).toBe(1);
    });

    it('scans a prefix literally, in key order, skipping expired keys', async () => {
      const prefix = space();
      await kv.set(`${prefix}b`, '2');
      await kv.set(`${prefix}a`, '1');
      await kv.set(`${prefix}*[x]?`, 'glob');
      await kv.set(`${prefix}gone`, 'x', { ttlMs: 30 });
      await kv.set(`${space()}a`, 'other space');
      await pause(100);
      expect(await kv.scan(prefix)).toEqual([
        { key: `${prefix}*[x]?`, value: 'glob' },
        { key: `${prefix}a`, value: '1' },
        { key: `${prefix}b`, value: '2' },
      ]);
      expect(await kv.scan(`${prefix}*`)).toEqual([{ key: `${prefix}*[x]?`, value: 'glob' }]);
    });

    it('keeps a map of fields under one key, in field order, each field expiring on its own', async () => {
      const key = `${space()}map`;
      expect(await kv.fields(key)).toEqual([]);
      expect(await kv.setField(key, 'b', '2', { ttlMs: 60_000 })).toBe(true);
      expect(await kv.setField(key, 'a', '1|with a bar', { ttlMs: 60_000 })).toBe(true);
      expect(await kv.setField(key, 'short', 's', { ttlMs: WINDOW_MS })).toBe(true);
      expect(await kv.setField(key, 'b', 'two', { ttlMs: 60_000 })).toBe(true);
      expect(await kv.fields(key)).toEqual([
        { field: 'a', value: '1|with a bar' },
        { field: 'b', value: 'two' },
        { field: 'short', value: 's' },
      ]);
      expect(await kv.fields(`${key}-other`)).toEqual([]);
      await pause(WINDOW_MS + 100);
      expect(await kv.fields(key)).toEqual([
        { field: 'a', value: '1|with a bar' },
        { field: 'b', value: 'two' },
      ]);
      expect(await kv.deleteField(key, 'short')).toBe(false);
      expect(await kv.deleteField(key, 'a')).toBe(true);
      expect(await kv.deleteField(key, 'a')).toBe(false);
      expect(await kv.fields(key)).toEqual([{ field: 'b', value: 'two' }]);
    });

    it('keeps a map as long as its longest-lived field, whichever was set last', async () => {
      const key = `${space()}map`;
      await kv.setField(key, 'long', 'kept', { ttlMs: 60_000 });
      await kv.setField(key, 'short', 'gone', { ttlMs: WINDOW_MS });
      await pause(WINDOW_MS + 100);
      expect(await kv.fields(key)).toEqual([{ field: 'long', value: 'kept' }]);
    });

    it('sets a field only if present: a rewrite brings back no field deleted or expired before it', async () => {
      const key = `${space()}map`;
      expect(await kv.setField(key, 'f', 'rewritten', { ttlMs: 60_000, onlyIfPresent: true })).toBe(false);
      expect(await kv.fields(key)).toEqual([]);
      await kv.setField(key, 'f', 'first', { ttlMs: 60_000 });
      expect(await kv.setField(key, 'f', 'second', { ttlMs: 60_000, onlyIfPresent: true })).toBe(true);
      expect(await kv.fields(key)).toEqual([{ field: 'f', value: 'second' }]);
      await kv.deleteField(key, 'f');
      expect(await kv.setField(key, 'f', 'third', { ttlMs: 60_000, onlyIfPresent: true })).toBe(false);
      await kv.setField(key, 'brief', 'x', { ttlMs: WINDOW_MS });
      await pause(WINDOW_MS + 100);
      expect(await kv.setField(key, 'brief', 'back', { ttlMs: 60_000, onlyIfPresent: true })).toBe(false);
      expect(await kv.fields(key)).toEqual([]);
    });

    it('writes fields of one map from many callers at once without losing any', async () => {
      const key = `${space()}map`;
      await Promise.all(Array.from({ length: 20 }, (_, index) => kv.setField(key, `f${String(index).padStart(2, '0')}`, String(index), { ttlMs: 60_000 })));
      expect((await kv.fields(key)).map(({ value }) => value)).toEqual(Array.from({ length: 20 }, (_, index) => String(index)));
    });
  });
}

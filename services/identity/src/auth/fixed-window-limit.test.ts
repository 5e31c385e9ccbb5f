import { createMemoryKeyValue } from '@platform/kv';
import { describe, expect, it } from 'vitest';
import { FixedWindowLimit } from './fixed-window-limit';

describe('FixedWindowLimit', () => {
  it('lets exactly the limit of parallel attempts through, per key, until the window ends', async () => {
    let now = 0;
    const limit = new FixedWindowLimit(createMemoryKeyValue({ now: () => now }), 60_000);
    const answers = await Promise.all(Array.from({ length: 30 }, () => limit.take([{ key: 'a', limit: 5 }])));
    expect(answers.filter(Boolean)).toHaveLength(5);
    expect(await limit.take([{ key: 'b', limit: 5 }])).toBe(true);
    now = 60_000;
    expect(await limit.take([{ key: 'a', limit: 5 }])).toBe(true);
  });

  it('refuses when any one of several limits is exceeded, and counts a given-back attempt no more', async () => {
    const limit = new FixedWindowLimit(createMemoryKeyValue(), 60_000);
    expect(await limit.take([{ key: 'account', limit: 1 }, { key: 'ip', limit: 10 }])).toBe(true);
    expect(await limit.take([{ key: 'account', limit: 1 }, { key: 'ip', limit: 10 }])).toBe(false);
    await limit.clear('account');
    await limit.giveBack('ip');
    await limit.giveBack('ip');
    expect(await limit.take([{ key: 'account', limit: 1 }, { key: 'ip', limit: 1 }])).toBe(true);
    expect(limit.retryAfterSeconds).toBe(60);
  });

  it('gives nothing back to a window that has ended: the next window allows no extra attempt', async () => {
    let now = 0;
    const limit = new FixedWindowLimit(createMemoryKeyValue({ now: () => now }), 60_000);
    expect(await limit.take([{ key: 'ip', limit: 2 }])).toBe(true);
    // The attempt's password check outlived its window; only then is its attempt given back.
    now = 60_000;
    await limit.giveBack('ip');
    const next = [await limit.take([{ key: 'ip', limit: 2 }]), await limit.take([{ key: 'ip', limit: 2 }]), await limit.take([{ key: 'ip', limit: 2 }])];
    expect(next).toEqual([true, true, false]);
  });
});

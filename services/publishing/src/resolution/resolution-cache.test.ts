import { describe, expect, it } from 'vitest';
import { ResolutionCache } from './resolution-cache';

interface Answer {
  projectId?: string;
  applicationId?: string;
  value: number;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function counting(answer: (hostname: string, call: number) => Answer) {
  const calls: string[] = [];
  const load = async (hostname: string) => {
    calls.push(hostname);
    return answer(hostname, calls.length);
  };
  return { calls, load };
}

describe('ResolutionCache', () => {
  it('keeps answers only up to its characters of JSON: past them the least recently used is loaded again', async () => {
    const routes = 'r'.repeat(400);
    const { calls, load } = counting((hostname) => ({ value: hostname.length, routes }) as Answer);
    const cache = new ResolutionCache(load, { ttlMs: 60_000, max: 100, maxCharacters: 1_000 });
    for (const hostname of ['a.example.com', 'b.example.com', 'c.example.com']) await cache.get(hostname);
    await cache.get('c.example.com');
    await cache.get('b.example.com');
    expect(calls).toEqual(['a.example.com', 'b.example.com', 'c.example.com']);
    await cache.get('a.example.com');
    expect(calls).toEqual(['a.example.com', 'b.example.com', 'c.example.com', 'a.example.com']);
  });

  it('answers repeated lookups from memory until the TTL passes', async () => {
    const { calls, load } = counting((_h, call) => ({ value: call }));
    const cache = new ResolutionCache(load, { ttlMs: 40, max: 10, maxCharacters: 1_000_000 });
    expect((await cache.get('a.example.com')).value).toBe(1);
    expect((await cache.get('a.example.com')).value).toBe(1);
    expect(calls).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 60));
    expect((await cache.get('a.example.com')).value).toBe(2);
  });

  it('shares one load between concurrent misses', async () => {
    const gate = deferred<void>();
    let loads = 0;
    const cache = new ResolutionCache<Answer>(
      async () => {
        loads += 1;
        await gate.promise;
        return { value: loads };
      },
      { ttlMs: 10_000, max: 10, maxCharacters: 1_000_000 },
    );
    const answers = Promise.all(Array.from({ length: 10 }, () => cache.get('a.example.com')));
    gate.resolve();
    expect((await answers).map((a) => a.value)).toEqual(Array(10).fill(1));
    expect(loads).toBe(1);
  });

  it('forgets an application: its hostnames reload, others stay cached', async () => {
    const { calls, load } = counting((hostname, call) => ({ projectId: 'p', applicationId: hostname.startsWith('a') ? 'app1' : 'app2', value: call }));
    const cache = new ResolutionCache(load, { ttlMs: 10_000, max: 10, maxCharacters: 1_000_000 });
    await cache.get('a.example.com');
    await cache.get('b.example.com');
    cache.forgetApplication('p', 'app1');
    await cache.get('a.example.com');
    await cache.get('b.example.com');
    expect(calls).toEqual(['a.example.com', 'b.example.com', 'a.example.com']);
    cache.forgetHostnames(['b.example.com']);
    await cache.get('b.example.com');
    expect(calls).toHaveLength(4);
  });

  it('does not keep a load that was running when something was forgotten', async () => {
    const gate = deferred<void>();
    let state = 'old';
    const cache = new ResolutionCache<Answer>(
      async () => {
        const seen = state;
        await gate.promise;
        return { projectId: 'p', applicationId: 'app1', value: seen === 'old' ? 1 : 2 };
      },
      { ttlMs: 10_000, max: 10, maxCharacters: 1_000_000 },
    );
    const stale = cache.get('a.example.com');
    state = 'new';
    cache.forgetApplication('p', 'app1');
    gate.resolve();
    expect((await stale).value).toBe(1);
    expect((await cache.get('a.example.com')).value).toBe(2);
  });
});

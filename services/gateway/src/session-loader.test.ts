import { sessionKey, type SessionRecord } from '@platform/contracts';
import { hashToken } from '@platform/kit';
import { createMemoryKeyValue, type KeyValue } from '@platform/kv';
import { describe, expect, it } from 'vitest';
import { SessionLoader } from './session-loader';

const NOW = 1_000_000;

/** The memory store, made unreachable on demand (the loader's fallback is what is tested). */
function switchableStore(): { kv: KeyValue; down: () => void } {
  const memory = createMemoryKeyValue();
  let reachable = true;
  const kv: KeyValue = Object.assign(Object.create(memory) as KeyValue, {
    get: (key: string) => (reachable ? memory.get(key) : Promise.reject(new Error('store unreachable'))),
  });
  return { kv, down: () => (reachable = false) };
}

async function storeSession(kv: KeyValue, token: string): Promise<void> {
  const record: SessionRecord = { id: `s-${token}`, userId: `u-${token}`, expiresAt: NOW + 60_000, createdAt: NOW, platformOwner: false };
  await kv.set(sessionKey(hashToken(token)), JSON.stringify(record));
}

describe('SessionLoader', () => {
  it('keeps the most recently used sessions up to its bound, for when the store is down', async () => {
    const { kv, down } = switchableStore();
    const loader = new SessionLoader(kv, () => NOW, 2);
    for (const token of ['a', 'b', 'c']) await storeSession(kv, token);
    for (const token of ['a', 'b', 'a', 'c']) expect(await loader.load(token)).toMatchObject({ status: 'found', fromCache: false });
    down();
    expect(await loader.load('a')).toMatchObject({ status: 'found', fromCache: true, session: { userId: 'u-a' } });
    expect(await loader.load('c')).toMatchObject({ status: 'found', fromCache: true, session: { userId: 'u-c' } });
    expect(await loader.load('b')).toEqual({ status: 'store-unavailable' });
  });

  it('keeps the latest record of a session: a refreshed one replaces the cached one, an unchanged one is read from the cache again', async () => {
    const { kv, down } = switchableStore();
    const loader = new SessionLoader(kv, () => NOW, 10);
    await storeSession(kv, 'a');
    const first = await loader.load('a');
    const again = await loader.load('a');
    expect(again).toMatchObject({ status: 'found', fromCache: false });
    // The same record: the parsed session is the cached one, not parsed again.
    expect(again.status === 'found' && first.status === 'found' && again.session === first.session).toBe(true);
    const key = sessionKey(hashToken('a'));
    await kv.set(key, JSON.stringify({ ...JSON.parse((await kv.get(key)) as string), displayName: 'Ada Lovelace' }));
    expect(await loader.load('a')).toMatchObject({ status: 'found', session: { displayName: 'Ada Lovelace' } });
    down();
    expect(await loader.load('a')).toMatchObject({ status: 'found', fromCache: true, session: { displayName: 'Ada Lovelace' } });
  });

  it('forgets a session the store no longer has, so a logout holds even when the store goes down after it', async () => {
    const { kv, down } = switchableStore();
    const loader = new SessionLoader(kv, () => NOW, 10);
    await storeSession(kv, 'a');
    expect(await loader.load('a')).toMatchObject({ status: 'found' });
    await kv.delete(sessionKey(hashToken('a')));
    expect(await loader.load('a')).toEqual({ status: 'none' });
    down();
    expect(await loader.load('a')).toEqual({ status: 'store-unavailable' });
  });
});

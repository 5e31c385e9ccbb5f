import { SESSION_USE_RESOLUTION_MS, sessionUsedKey, type SessionRecord } from '@platform/contracts';
import { createLogger } from '@platform/kit';
import { createMemoryKeyValue } from '@platform/kv';
import { describe, expect, it } from 'vitest';
import { SessionUseRecorder } from './session-use-recorder';

const session = (expiresAt: number): SessionRecord => ({ id: 's1', userId: 'u1', createdAt: 0, expiresAt, platformOwner: false });

describe('SessionUseRecorder', () => {
  it('writes a use at once, then at most once per resolution, with the session as its lifetime', async () => {
    let now = 1_000_000;
    const kv = createMemoryKeyValue({ now: () => now });
    const recorder = new SessionUseRecorder(kv, () => now, createLogger({ level: 'silent' }));
    recorder.record('hash-a', session(now + 60 * 60_000));
    await expect.poll(() => kv.get(sessionUsedKey('hash-a'))).toBe(String(now));
    const first = now;

    now += SESSION_USE_RESOLUTION_MS - 1;
    recorder.record('hash-a', session(first + 60 * 60_000));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await kv.get(sessionUsedKey('hash-a'))).toBe(String(first));

    now += 1;
    recorder.record('hash-a', session(first + 60 * 60_000));
    await expect.poll(() => kv.get(sessionUsedKey('hash-a'))).toBe(String(now));

    // The note lives as long as the session: gone with it.
    now = first + 60 * 60_000;
    expect(await kv.get(sessionUsedKey('hash-a'))).toBeNull();
  });

  it('writes nothing for a session already expired, and tries again after a failed write', async () => {
    const now = 5_000;
    const kv = createMemoryKeyValue({ now: () => now });
    let failing = true;
    const flaky = { ...kv, set: (...args: Parameters<typeof kv.set>) => (failing ? Promise.reject(new Error('store down')) : kv.set(...args)) };
    const recorder = new SessionUseRecorder(flaky, () => now, createLogger({ level: 'silent' }));
    recorder.record('expired', session(now));
    recorder.record('flaky', session(now + 60_000));
    await new Promise((resolve) => setTimeout(resolve, 10));
    failing = false;
    recorder.record('flaky', session(now + 60_000));
    await expect.poll(() => kv.get(sessionUsedKey('flaky'))).toBe(String(now));
    expect(await kv.get(sessionUsedKey('expired'))).toBeNull();
  });
});

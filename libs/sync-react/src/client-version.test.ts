import type { SyncClient } from '@platform/sync-client';
import { describe, expect, it } from 'vitest';
import { subscribe, versionOf } from './client-version';

/** The part of a SyncClient the tracker uses: `on`, and a way to emit. */
function fakeClient() {
  const listeners = new Map<string, Array<() => void>>();
  const client = { on: (event: string, listener: () => void) => void listeners.set(event, [...(listeners.get(event) ?? []), listener]) };
  const emit = (event: string) => listeners.get(event)?.forEach((listener) => listener());
  return { client: client as unknown as SyncClient, emit };
}

describe('the change counter the hooks read', () => {
  it('counts every event at once but tells each listener once per burst, after its last event', async () => {
    const { client, emit } = fakeClient();
    const heard: number[] = [];
    subscribe(client, () => heard.push(versionOf(client)));
    for (let index = 0; index < 10_000; index += 1) emit('state');
    emit('change');
    expect(versionOf(client)).toBe(10_001);
    expect(heard).toEqual([]);
    await Promise.resolve();
    expect(heard).toEqual([10_001]);

    emit('realtime');
    await Promise.resolve();
    expect(heard).toEqual([10_001, 10_002]);
  });

  it('stops telling a listener that unsubscribed, and ignores events that change no answer', async () => {
    const { client, emit } = fakeClient();
    let calls = 0;
    const unsubscribe = subscribe(client, () => (calls += 1));
    emit('error');
    emit('unauthorized');
    await Promise.resolve();
    expect(calls).toBe(0);
    unsubscribe();
    emit('state');
    await Promise.resolve();
    expect(calls).toBe(0);
    expect(versionOf(client)).toBe(1);
  });
});

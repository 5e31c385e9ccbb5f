import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmbeddedKeyValue } from './embedded';
import type { KeyValue } from './port';

describe('embedded KeyValue across a restart', () => {
  let directory: string;
  let clock: number;
  const open = () => createEmbeddedKeyValue({ directory, now: () => clock });
  const logLines = async () => (await readFile(join(directory, 'kv.jsonl'), 'utf8')).split('\n').filter(Boolean);

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'kv-durability-'));
    clock = 1_000_000;
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('keeps values, deletions and counters with their windows; expired keys are gone after reopening', async () => {
    const first = await open();
    await first.set('session:a', 'alice', { ttlMs: 60_000 });
    await first.set('plain', 'forever');
    await first.set('deleted', 'x');
    await first.delete('deleted');
    await first.set('short', 'x', { ttlMs: 1_000 });
    await first.increment('counter', { ttlMs: 10_000, by: 3 });
    await first.increment('counter', { ttlMs: 10_000, by: -1 });
    await first.close();

    clock += 5_000;
    const second = await open();
    expect(await second.get('session:a')).toBe('alice');
    expect(await second.get('plain')).toBe('forever');
    expect(await second.get('deleted')).toBeNull();
    expect(await second.get('short')).toBeNull();
    expect(await second.increment('counter', { ttlMs: 60_000 })).toBe(3);
    clock += 5_000;
    expect(await second.get('counter')).toBeNull();
    await second.close();
  });

  it('rewrites the log at open without overwritten, deleted and expired keys', async () => {
    const first = await open();
    for (let round = 0; round < 5; round += 1) await first.set('k', `v${round}`);
    await first.set('gone', 'x');
    await first.delete('gone');
    await first.set('expiring', 'x', { ttlMs: 10 });
    await first.close();
    expect(await logLines()).toHaveLength(8);

    clock += 100;
    const second = await open();
    expect(await logLines()).toEqual([JSON.stringify({ set: 'k', value: 'v4' })]);
    await second.set('after', 'compaction');
    await second.close();

    const third = await open();
    expect(await third.scan('')).toEqual([
      { key: 'after', value: 'compaction' },
      { key: 'k', value: 'v4' },
    ]);
    await third.close();
  });

  it('keeps the fields of maps across a restart, without deleted or expired ones, and leaves those out of the rewritten log', async () => {
    const first = await open();
    await first.setField('sessions:u1', 'a', 'one', { ttlMs: 60_000 });
    await first.setField('sessions:u1', 'b', 'two', { ttlMs: 60_000 });
    await first.setField('sessions:u1', 'b', 'two again', { ttlMs: 60_000 });
    await first.setField('sessions:u1', 'brief', 'x', { ttlMs: 1_000 });
    await first.setField('sessions:u2', 'c', 'gone', { ttlMs: 60_000 });
    await first.deleteField('sessions:u2', 'c');
    await first.set('plain', 'kept');
    await first.close();
    expect(await logLines()).toHaveLength(7);

    clock += 5_000;
    const second = await open();
    expect(await second.fields('sessions:u1')).toEqual([
      { field: 'a', value: 'one' },
      { field: 'b', value: 'two again' },
    ]);
    expect(await second.fields('sessions:u2')).toEqual([]);
    expect((await logLines()).map((line) => JSON.parse(line))).toEqual([
      { set: 'plain', value: 'kept' },
      { setField: 'sessions:u1', field: 'a', value: 'one', expiresAt: 1_060_000 },
      { setField: 'sessions:u1', field: 'b', value: 'two again', expiresAt: 1_060_000 },
    ]);
    clock += 60_000;
    expect(await second.fields('sessions:u1')).toEqual([]);
    await second.close();
  });

  it('drops a torn last line left by a crash mid-write', async () => {
    const first = await open();
    await first.set('kept', 'yes');
    await first.close();
    await writeFile(join(directory, 'kv.jsonl'), `${JSON.stringify({ set: 'kept', value: 'yes' })}\n{"set":"torn","val`);

    const second = await open();
    expect(await second.get('kept')).toBe('yes');
    expect(await second.get('torn')).toBeNull();
    await second.close();
  });

  it('admits one owner of the directory at a time', async () => {
    const owner: KeyValue = await open();
    await expect(open()).rejects.toThrow(/already open/);
    await owner.close();
    const next = await open();
    await next.close();
  });
});

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppendLog } from './append-log';
import type { LogReporter } from './log-reporter';

describe('AppendLog', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'append-log-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('writes an append made as soon as the one before it resolved', async () => {
    const file = join(directory, 'log.jsonl');
    const log = new AppendLog(file, { fsync: false, validBytes: 0, lineCount: 0, liveCount: () => 0, snapshot: () => [] });
    await log.append({ n: 1 });
    // Made in the very continuation of the first: no other append would start a flush for it.
    const second = log.append({ n: 2 });
    const waited = new Promise((resolve) => setTimeout(resolve, 5_000, 'still waiting'));
    expect(await Promise.race([second.then(() => 'written'), waited])).toBe('written');
    await log.close();
    expect(await readFile(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n');
  });

  it('tries a failed compaction again only once its wait has passed, the wait doubling with each failure in a row', async () => {
    const file = join(directory, 'log.jsonl');
    let clock = 0;
    let attempts = 0;
    const warnings: Array<Record<string, unknown>> = [];
    const reporter: LogReporter = { warn: (fields) => warnings.push(fields), error: () => undefined };
    const log = new AppendLog(file, {
      fsync: false,
      validBytes: 0,
      lineCount: 0,
      liveCount: () => 1,
      snapshot: () => {
        attempts += 1;
        if (attempts <= 2) throw new Error('no room for the copy');
        return ['{"live":true}'];
      },
      compactRetryMs: 1_000,
      now: () => clock,
      reporter,
    });
    for (let n = 0; n < 1001; n += 1) await log.append({ n });
    await vi.waitFor(() => expect(warnings).toHaveLength(1));

    await log.append({ n: 'next write' });
    expect(attempts).toBe(1);
    clock = 1_000;
    await log.append({ n: 'after the first wait' });
    await vi.waitFor(() => expect(warnings).toHaveLength(2));
    clock = 2_999;
    await log.append({ n: 'before the second wait is over' });
    expect(attempts).toBe(2);
    clock = 3_000;
    await log.append({ n: 'after the second wait' });
    expect(log.writable).toBe(true);
    await log.close();

    expect(attempts).toBe(3);
    expect(warnings.map((fields) => fields.retryInMs)).toEqual([1_000, 2_000]);
    // The third compaction rewrote the log: the snapshot's line and what came after it.
    expect((await readFile(file, 'utf8')).split('\n').filter(Boolean).length).toBeLessThan(5);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedStore } from '@platform/storage';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { exportStore } from './export-store';
import { Progress } from './progress';

/** What a terminal (or a pipe) was sent. */
function output(isTTY: boolean): { stream: NodeJS.WriteStream; written: string[] } {
  const written: string[] = [];
  const stream = { isTTY, write: (text: string) => written.push(text) > 0 } as unknown as NodeJS.WriteStream;
  return { stream, written };
}

describe('the data commands progress bar', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'progress-'));
  });
  afterEach(async () => {
    vi.useRealTimers();
    await rm(root, { recursive: true, force: true });
  });

  it('redraws one line on a terminal, at most every 100 ms but always at the end, and ends it with a newline', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const terminal = output(true);
    const progress = new Progress('exporting', terminal.stream);
    progress.update(1, 4, '1 documents');
    vi.advanceTimersByTime(99);
    progress.update(2, 4, '2 documents');
    vi.advanceTimersByTime(1);
    progress.update(3, 4, '3 documents');
    progress.update(4, 4, '4 documents');
    progress.done();
    expect(terminal.written).toEqual([
      `\rexporting [########......................] 25% 1 documents\u001b[K`,
      `\rexporting [#######################.......] 75% 3 documents\u001b[K`,
      `\rexporting [##############################] 100% 4 documents\u001b[K`,
      '\n',
    ]);
  });

  it('writes nothing where the output is not a terminal', () => {
    const pipe = output(false);
    const progress = new Progress('exporting', pipe.stream);
    progress.update(4, 4, '4 documents');
    progress.done();
    expect(pipe.written).toEqual([]);
  });

  it('pnpm data:export draws it up to 100% of the snapshot it streams', async () => {
    const store = await createEmbeddedStore({ dataDir: join(root, 'data') });
    await store.collection('notes').insertMany(Array.from({ length: 50 }, (_, index) => ({ id: `n${index}` })));
    const terminal = output(true);
    try {
      await exportStore(join(root, 'export'), (scratch) => store.backup(scratch), new Progress('exporting', terminal.stream));
    } finally {
      await store.close();
    }
    expect(terminal.written.at(-2)).toBe(`\rexporting [##############################] 100% 50 documents\u001b[K`);
    expect(terminal.written.at(-1)).toBe('\n');
  });
});

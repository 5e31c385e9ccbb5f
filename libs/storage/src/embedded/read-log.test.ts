import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CorruptLogError, readLog } from './read-log';

const directories: string[] = [];

async function logFile(text: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'read-log-'));
  directories.push(directory);
  const file = join(directory, 'store.wal');
  await writeFile(file, text);
  return file;
}

afterEach(async () => {
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

const lines = ['{"set":"a","value":"1"}', '{"set":"é-ü","value":"multi-byte ✓"}', `{"set":"long","value":"${'x'.repeat(100)}"}`];

describe('readLog, reading the file piece by piece', () => {
  it('reads the same records whatever the size of the pieces, lines across them included', async () => {
    const file = await logFile(`${lines.join('\n')}\n`);
    const whole = await readLog(file);
    expect(whole.records).toEqual(lines.map((line) => JSON.parse(line)));
    for (const chunkBytes of [1, 2, 7, 64, 1 << 20]) expect(await readLog(file, { chunkBytes }), `pieces of ${chunkBytes}`).toEqual(whole);
  });

  it('cuts off a torn tail (a last line without its newline, or garbage) and counts its bytes', async () => {
    const torn = `${lines[0]}\n${lines[1]}\n{"set":"half`;
    for (const chunkBytes of [3, 1 << 20]) {
      const read = await readLog(await logFile(torn), { chunkBytes });
      expect(read.records).toHaveLength(2);
      expect(read.validBytes).toBe(Buffer.byteLength(`${lines[0]}\n${lines[1]}\n`));
      expect(read.tornBytes).toBe(Buffer.byteLength('{"set":"half'));
    }
    const garbage = await readLog(await logFile(`${lines[0]}\n\u0000\u0000\u0000\n\u0000`), { chunkBytes: 2 });
    expect([garbage.records.length, garbage.tornBytes]).toEqual([1, 5]);
  });

  it('stops at real corruption, naming the byte offset and line of the first bad line', async () => {
    const file = await logFile(`${lines[0]}\nnot json\n${lines[2]}\n`);
    for (const chunkBytes of [5, 1 << 20]) {
      const reading = readLog(file, { chunkBytes });
      await expect(reading).rejects.toBeInstanceOf(CorruptLogError);
      await expect(reading).rejects.toMatchObject({ offset: Buffer.byteLength(`${lines[0]}\n`), message: expect.stringContaining('(line 2)') });
    }
  });

  it('reads only the first bytes it is told to: the lines after them are not read, a line cut by the end is torn', async () => {
    const file = await logFile(`${lines.join('\n')}\n`);
    const firstTwo = Buffer.byteLength(`${lines[0]}\n${lines[1]}\n`);
    for (const chunkBytes of [3, 1 << 20]) {
      expect(await readLog(file, { endAt: firstTwo, chunkBytes })).toEqual({ records: lines.slice(0, 2).map((line) => JSON.parse(line)), validBytes: firstTwo, tornBytes: 0 });
      expect(await readLog(file, { endAt: firstTwo + 5, chunkBytes })).toMatchObject({ records: lines.slice(0, 2).map((line) => JSON.parse(line)), tornBytes: 5 });
    }
    expect(await readLog(file, { endAt: 0 })).toEqual({ records: [], validBytes: 0, tornBytes: 0 });
  });

  it('reads a missing file as an empty log', async () => {
    expect(await readLog(join(tmpdir(), 'no-such-dir-read-log', 'store.wal'))).toEqual({ records: [], validBytes: 0, tornBytes: 0 });
  });
});

import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmbeddedStore } from './embedded-store';

const fixture = fileURLToPath(new URL('./short-write.fixture.ts', import.meta.url));

/** Runs the fixture where no file may grow past 20 KiB (a disk that fills up): answers what it printed. */
async function underFileSizeLimit(args: string[]): Promise<string[]> {
  const command = `trap '' XFSZ; ulimit -f 20; exec "${process.execPath}" --import tsx "${fixture}" ${args.map((arg) => `"${arg}"`).join(' ')}`;
  const child = spawn('bash', ['-c', command], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  expect(code).toBe(0);
  return output.split('\n').filter(Boolean);
}

describe('embedded store on a disk that fills up', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'short-writes-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses the append the disk took only part of, and keeps every acknowledged write', async () => {
    const printed = await underFileSizeLimit(['append', dataDir]);
    const acknowledged = printed.filter((line) => line.startsWith('ack ')).map((line) => line.slice(4));
    expect(printed.at(-1)).toMatch(/^refused /);
    expect(acknowledged.length).toBeGreaterThan(10);
    const store = await createEmbeddedStore({ dataDir });
    const stored = new Set((await store.collection('items').find({}, { projection: { id: 1 } })).map((item) => item.id));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    // The log takes writes again where the refused one was cut off.
    await store.collection('items').insertOne({ id: 'after', payload: 'y' });
    await store.close();
    const reopened = await createEmbeddedStore({ dataDir });
    expect(await reopened.collection('items').count({})).toBe(acknowledged.length + 1);
    await reopened.close();
  }, 60_000);

  it('refuses a backup the disk took only part of, and leaves no cut-off copy behind', async () => {
    const store = await createEmbeddedStore({ dataDir });
    for (let i = 0; i < 40; i += 1) await store.collection('items').insertOne({ id: `d${i}`, payload: 'x'.repeat(2_000) });
    await store.close();
    const target = join(dataDir, 'backup');
    expect(await underFileSizeLimit(['backup', dataDir, target])).toEqual([expect.stringMatching(/^refused /)]);
    expect(await readdir(target)).toEqual([]);
  }, 60_000);
});

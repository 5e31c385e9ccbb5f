import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@platform/kit';
import { createEmbeddedStore } from '@platform/storage';
import { describe, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform } from './host';
import { logStoreLoaded, memoryBudgetProbe } from './store-ceiling';

const MiB = 1024 * 1024;

describe('the embedded store ceiling', () => {
  it('is healthy below 90% of the memory budget and down from there', async () => {
    let resident = 800 * MiB;
    const { name, kind, probe } = memoryBudgetProbe(1000, () => resident);
    expect({ name, kind }).toEqual({ name: 'memory', kind: 'embedded store budget 1000 MB' });
    expect(await probe()).toBe(true);
    resident = 900 * MiB;
    expect(await probe()).toBe(false);
  });

  it('logs the size and load time of an embedded store at start', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'store-ceiling-'));
    try {
      const first = await createEmbeddedStore({ dataDir });
      await first.collection('a').insertMany([{ id: '1' }, { id: '2' }]);
      await first.collection('b').insertOne({ id: '3' });
      await first.close();
      const store = await createEmbeddedStore({ dataDir });
      const lines: Array<Record<string, unknown>> = [];
      logStoreLoaded(store, createLogger({ level: 'info', destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } }), 512);
      await store.close();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ store: { collections: 2, documents: 3, logBytes: expect.any(Number), loadMs: expect.any(Number) }, memoryBudgetMb: 512 });
      expect(lines[0]?.msg).toMatch(/^embedded store loaded: 3 documents in 2 collections/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('the all-in-one logs the store at start and reports degraded health near EMBEDDED_MEMORY_BUDGET_MB', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'store-ceiling-platform-'));
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
    const health = async (url: string) => ((await (await fetch(`${url}/api/health`)).json()) as { status: string }).status;
    try {
      // No Node process hosting every service fits in 90% of 64 MB.
      const tight = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, EMBEDDED_MEMORY_BUDGET_MB: '64' }), { logger });
      try {
        expect(await health(tight.url)).toBe('degraded');
      } finally {
        await tight.close();
      }
      expect(lines.find((line) => String(line.msg).startsWith('embedded store loaded:'))).toMatchObject({ memoryBudgetMb: 64, store: { loadMs: expect.any(Number) } });
      const roomy = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, EMBEDDED_MEMORY_BUDGET_MB: '1000000' }), { logger });
      try {
        expect(await health(roomy.url)).toBe('ok');
      } finally {
        await roomy.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses a memory budget that is not a whole number of megabytes, naming the variable', () => {
    expect(() => loadPlatformConfig({ EMBEDDED_MEMORY_BUDGET_MB: 'lots' })).toThrow(/EMBEDDED_MEMORY_BUDGET_MB/);
  });
});

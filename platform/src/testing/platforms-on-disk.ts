import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { loadPlatformConfig } from '../config';
import { startPlatform, type RunningPlatform } from '../host';
import { httpCaller } from './platform-http';

/**
 * All-in-one platforms a test starts one after another on DATA_DIR folders under one temporary root,
 * for what a data directory carries (backups, exports). Called in a describe block, it closes the
 * running platform and removes the root after the block's tests. `call` goes to the running one.
 */
export function platformsOnDisk(rootPrefix: string) {
  let root: string | undefined;
  let running: RunningPlatform | undefined;

  afterAll(async () => {
    await running?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  return {
    /** A new temporary root (a folder named `<rootPrefix>…` in the system's temporary directory). */
    async makeRoot(): Promise<string> {
      root = await mkdtemp(join(tmpdir(), rootPrefix));
      return root;
    },
    /** Starts the all-in-one on `dataDir` with a free port and the given environment. */
    async start(dataDir: string, environment: Record<string, string> = {}, options: Parameters<typeof startPlatform>[1] = {}): Promise<RunningPlatform> {
      running = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, ...environment }), options);
      return running;
    },
    async stop(): Promise<void> {
      await running?.close();
      running = undefined;
    },
    call: httpCaller(() => {
      if (!running) throw new Error('no platform is running: start() one first');
      return running.url;
    }),
  };
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
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

/**
 * One all-in-one platform for a test file: started before its tests on a free port and a temporary
 * DATA_DIR (`<dataDirPrefix>…`), with `environment` on top of a silent log; closed and removed after
 * them. Call it at the top of the file, before the file's own `beforeAll`, which may then use it.
 */
export function allInOneForTests(dataDirPrefix: string, environment: Record<string, string> = {}) {
  let dataDir: string | undefined;
  let running: RunningPlatform | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), dataDirPrefix));
    running = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...environment }));
  });

  afterAll(async () => {
    await running?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const platform = (): RunningPlatform => {
    if (!running) throw new Error('the platform starts in beforeAll: use it inside hooks and tests');
    return running;
  };
  return { platform, call: httpCaller(() => platform().url) };
}

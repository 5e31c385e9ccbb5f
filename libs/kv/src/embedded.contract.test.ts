import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { runKeyValueContract } from './contract';
import { createEmbeddedKeyValue } from './embedded';

const directories: string[] = [];
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

runKeyValueContract('embedded', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'kv-contract-'));
  directories.push(directory);
  return createEmbeddedKeyValue({ directory });
});

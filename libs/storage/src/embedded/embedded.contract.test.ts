import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDocumentStoreContract } from '../contract';
import { createEmbeddedStore } from './embedded-store';

runDocumentStoreContract('embedded', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'embedded-contract-'));
  const store = await createEmbeddedStore({ dataDir });
  return {
    store,
    dispose: async () => {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});

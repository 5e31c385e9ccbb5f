import { createEmbeddedStore, requestBackup, type BackupSummary } from '@platform/storage';

/**
 * A consistent copy of the embedded store (`pnpm data:backup`, and the snapshot `pnpm data:export`
 * reads). While the platform runs it holds the store's lock, so the copy is asked of it through
 * DATA_DIR/control.sock and taken while it serves writes; when nothing runs, the store is opened
 * here and copied.
 */
export async function backUpEmbeddedStore(dataDir: string, directory: string): Promise<BackupSummary> {
  try {
    return await requestBackup(dataDir, directory);
  } catch (error) {
    if (!/does not answer/.test((error as Error).message)) throw error;
  }
  const store = await createEmbeddedStore({ dataDir }).catch((error: Error) => {
    // A live owner that did not answer: no Unix socket where it runs (Windows, or a path too long for one).
    if (!/in use by process/.test(error.message)) throw error;
    throw new Error(`${error.message} and does not answer on ${dataDir}/control.sock: stop it and run the command again`);
  });
  try {
    return await store.backup(directory);
  } finally {
    await store.close();
  }
}

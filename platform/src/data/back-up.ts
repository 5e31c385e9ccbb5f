import { readdir } from 'node:fs/promises';
import { createEmbeddedStore, requestBackup, STORE_LOG_FILE, type BackupSummary } from '@platform/storage';

const NAME_DATA_DIR = 'set DATA_DIR to the data directory the platform runs with (the one pnpm start was given, e.g. DATA_DIR=/srv/platform)';

/**
 * Refuses a data directory without a store: opening one there would create an empty store (and
 * the directory), and the command would report a copy of nothing as a success. A store is its log,
 * the log files of older versions, or the lock of a process that holds it open.
 */
async function assertStoreIn(dataDir: string): Promise<void> {
  const names = await readdir(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw error;
  });
  if (names === undefined) throw new Error(`${dataDir} does not exist: ${NAME_DATA_DIR}`);
  if (!names.some((name) => name === STORE_LOG_FILE || name === 'LOCK' || name.endsWith('.jsonl'))) {
    throw new Error(`${dataDir} holds no embedded store (no ${STORE_LOG_FILE}): ${NAME_DATA_DIR}`);
  }
}

/**
 * A consistent copy of the embedded store (`pnpm data:backup`, and the snapshot `pnpm data:export`
 * reads). While the platform runs it holds the store's lock, so the copy is asked of it through
 * DATA_DIR/control.sock and taken while it serves writes; when nothing runs, the store is opened
 * here and copied. A DATA_DIR without a store is refused, never created.
 */
export async function backUpEmbeddedStore(dataDir: string, directory: string): Promise<BackupSummary> {
  await assertStoreIn(dataDir);
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

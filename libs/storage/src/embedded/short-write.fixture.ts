/**
 * Child process for the short-write tests, run under a file size limit (`ulimit -f`, SIGXFSZ
 * ignored) so the disk takes part of a write and refuses the next: `append` inserts documents
 * until a write fails and prints each acknowledged id; `backup` backs the store up and prints
 * whether that succeeded.
 */
import { createEmbeddedStore } from './embedded-store';

const [mode, dataDir, target] = process.argv.slice(2);
if (!dataDir || (mode !== 'append' && mode !== 'backup')) throw new Error('usage: short-write <append|backup> <dataDir> [backupDir]');
const store = await createEmbeddedStore({ dataDir });
if (mode === 'append') {
  try {
    for (let i = 0; ; i += 1) {
      await store.collection('items').insertOne({ id: `d${i}`, payload: 'x'.repeat(300) });
      process.stdout.write(`ack d${i}\n`);
    }
  } catch (error) {
    process.stdout.write(`refused ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
  }
} else {
  const outcome = await store.backup(target).then(
    (summary) => `backed up ${summary.records}`,
    (error: unknown) => `refused ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
  );
  process.stdout.write(`${outcome}\n`);
}
await store.close().catch(() => undefined);

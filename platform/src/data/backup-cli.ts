import { parseArgs } from 'node:util';
import { createEmbeddedStore, requestBackup, type BackupSummary } from '@platform/storage';
import { exitWithUsage, loadDataCliEnv } from './data-cli-env';

const USAGE = 'pnpm data:backup <directory>   (DATA_DIR names the store; restore by starting with DATA_DIR=<directory>)';

/**
 * `pnpm data:backup <dir>`: a consistent copy of the embedded store. While the platform runs it
 * holds the store's lock, so the copy is asked of it through DATA_DIR/control.sock and taken
 * while it serves writes; when nothing runs, the store is opened here and copied.
 */
async function backUp(dataDir: string, directory: string): Promise<BackupSummary> {
  try {
    return await requestBackup(dataDir, directory);
  } catch (error) {
    if (!/does not answer/.test((error as Error).message)) throw error;
  }
  const store = await createEmbeddedStore({ dataDir });
  try {
    return await store.backup(directory);
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const { positionals } = parseArgs({ allowPositionals: true, strict: true });
  const [target] = positionals;
  if (!target || positionals.length !== 1) exitWithUsage(USAGE);
  const env = loadDataCliEnv();
  if (env.mongoUrl) {
    console.error('MONGO_URL is set: back up MongoDB with its own tools (mongodump); pnpm data:export also reads it');
    process.exit(2);
  }
  const summary = await backUp(env.dataDir, env.pathFromCaller(target));
  console.log(`backed up ${env.dataDir} to ${summary.directory}: ${summary.records} records, ${summary.bytes} bytes in ${summary.durationMs} ms`);
  console.log(`restore: start the platform with DATA_DIR=${summary.directory}`);
}

void main().catch((error: unknown) => {
  console.error((error as Error).message ?? error);
  process.exit(1);
});

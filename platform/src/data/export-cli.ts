import { backUpEmbeddedStore } from './back-up';
import { directoryArgument, loadDataCliEnv, runDataCommand } from './data-cli-env';
import { exportStore } from './export-store';
import { Progress } from './progress';

/** `pnpm data:export <dir>`: every collection of the embedded store as NDJSON, also while the platform runs. */
const USAGE = 'pnpm data:export <directory>   (DATA_DIR names the store; load it with pnpm data:import <directory>)';

async function main(): Promise<void> {
  const target = directoryArgument(USAGE);
  const env = loadDataCliEnv();
  if (env.mongoUrl) {
    console.error('MONGO_URL is set: pnpm data:export reads the embedded store (DATA_DIR); export MongoDB with mongoexport');
    process.exit(2);
  }
  const started = Date.now();
  const manifest = await exportStore(env.pathFromCaller(target), (scratch) => backUpEmbeddedStore(env.dataDir, scratch), new Progress('exporting'));
  const documents = manifest.collections.reduce((sum, entry) => sum + entry.documents, 0);
  console.log(`exported ${documents} documents in ${manifest.collections.length} collections from ${env.dataDir} to ${env.pathFromCaller(target)} in ${Date.now() - started} ms`);
}

runDataCommand(main);

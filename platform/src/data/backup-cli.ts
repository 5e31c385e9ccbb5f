import { backUpEmbeddedStore } from './back-up';
import { directoryArgument, loadDataCliEnv, runDataCommand } from './data-cli-env';

/** `pnpm data:backup <dir>`: a consistent copy of the embedded store, also while the platform runs (see back-up.ts). */
const USAGE = 'pnpm data:backup <directory>   (DATA_DIR names the store; restore by starting with DATA_DIR=<directory>)';

async function main(): Promise<void> {
  const target = directoryArgument(USAGE);
  const env = loadDataCliEnv();
  if (env.mongoUrl) {
    console.error('MONGO_URL is set: back up MongoDB with its own tools (mongodump); pnpm data:backup copies only the embedded store');
    process.exit(2);
  }
  const summary = await backUpEmbeddedStore(env.dataDir, env.pathFromCaller(target));
  console.log(`backed up ${env.dataDir} to ${summary.directory}: ${summary.records} records, ${summary.bytes} bytes in ${summary.durationMs} ms`);
  console.log(`restore: start the platform with DATA_DIR=${summary.directory}`);
}

runDataCommand(main);

import { parseArgs } from 'node:util';
import { backUpEmbeddedStore } from './back-up';
import { exitWithUsage, loadDataCliEnv } from './data-cli-env';

/** `pnpm data:backup <dir>`: a consistent copy of the embedded store, also while the platform runs (see back-up.ts). */
const USAGE = 'pnpm data:backup <directory>   (DATA_DIR names the store; restore by starting with DATA_DIR=<directory>)';

async function main(): Promise<void> {
  const { positionals } = parseArgs({ allowPositionals: true, strict: true });
  const [target] = positionals;
  if (!target || positionals.length !== 1) exitWithUsage(USAGE);
  const env = loadDataCliEnv();
  if (env.mongoUrl) {
    console.error('MONGO_URL is set: back up MongoDB with its own tools (mongodump); pnpm data:export reads only the embedded store');
    process.exit(2);
  }
  const summary = await backUpEmbeddedStore(env.dataDir, env.pathFromCaller(target));
  console.log(`backed up ${env.dataDir} to ${summary.directory}: ${summary.records} records, ${summary.bytes} bytes in ${summary.durationMs} ms`);
  console.log(`restore: start the platform with DATA_DIR=${summary.directory}`);
}

void main().catch((error: unknown) => {
  console.error((error as Error).message ?? error);
  process.exit(1);
});

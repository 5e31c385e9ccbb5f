import { openDocumentStore } from '@platform/storage';
import { directoryArgument, loadDataCliEnv, runDataCommand } from './data-cli-env';
import { importStore } from './import-store';
import { Progress } from './progress';

/**
 * `pnpm data:import <dir>`: loads an export of `pnpm data:export` into MongoDB when MONGO_URL is
 * set (the microservice shape), else into the embedded store in DATA_DIR (the platform must be
 * stopped: the store admits one process).
 */
const USAGE = 'pnpm data:import <directory>   (into MONGO_URL/MONGO_DATABASE when set, else the embedded store in DATA_DIR)';

async function main(): Promise<void> {
  const source = directoryArgument(USAGE);
  const env = loadDataCliEnv();
  const started = Date.now();
  const store = await openDocumentStore({ mongoUrl: env.mongoUrl, mongoDatabase: env.mongoDatabase, dataDir: env.dataDir });
  try {
    const { collections, documents } = await importStore(env.pathFromCaller(source), store, new Progress('importing'));
    const target = env.mongoUrl ? `MongoDB database ${env.mongoDatabase}` : env.dataDir;
    console.log(`imported ${documents} documents in ${collections} collections into ${target} in ${Date.now() - started} ms`);
  } finally {
    await store.close();
  }
}

runDataCommand(main);

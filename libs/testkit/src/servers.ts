/**
 * Local backend servers and process helpers without any test-runner import, for programs that
 * are not tests (`pnpm start:services`, the local topology, `pnpm bench`).
 */
export { startMongoCompatServer, startNatsServer, startRedisServer, type LocalServer } from './local-servers';
export { ensureMongoCompatBinary } from './mongo-compat-build';
export { freePort, waitForPort, startProcess, type ManagedProcess } from './processes';
export { startBackendServers, type BackendServers } from './backend-servers';

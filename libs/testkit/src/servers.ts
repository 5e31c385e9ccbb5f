/**
 * Local backend servers and process helpers without any test-runner import, for programs that
 * are not tests (`pnpm start:services`, the local topology, `pnpm bench`).
 */
export { startMongoCompatServer, startNatsServer, startRedisServer, type LocalServer, type LocalServerOptions, type MongoCompatStorage } from './local-servers';
export { hasPostgresServer } from './postgres-cluster';
export { ensureMongoCompatBinary, mongoCompatBinaryPath } from './mongo-compat-build';
export { ensureGoBinary, goBinaryPath } from './go-build';
export { freePort, waitForPort, startProcess, hasExecutableSync, type ManagedProcess } from './processes';
export { restartDelayMs } from './restart-delay';
export { startBackendServers, type BackendServers, type BackendServerOptions } from './backend-servers';

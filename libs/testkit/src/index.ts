export { describeWithBackend, describeWithBackends, describeWithOwnServer } from './describe-with-backend';
export { startMongoCompatServer, startNatsServer, startRedisServer, type LocalServer } from './local-servers';
export { ensureMongoCompatBinary } from './mongo-compat-build';
export { freePort, waitForPort, startProcess, type ManagedProcess } from './processes';
export type { BackendKind, BackendReport } from './backends';

import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureGoBinary, goBinaryPath } from './go-build';

const sourceDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../tools/mongo-compat');

/** Where the binary for the current sources is cached (it may not be built yet). */
export function mongoCompatBinaryPath(): Promise<string> {
  return goBinaryPath(sourceDir, 'mongo-compat');
}

/**
 * Builds tools/mongo-compat (FerretDB embedded with its SQLite backend) with the Go toolchain
 * and caches the binary by a hash of its sources, so only the first run pays for the build.
 */
export function ensureMongoCompatBinary(): Promise<string> {
  return ensureGoBinary(sourceDir, 'mongo-compat');
}

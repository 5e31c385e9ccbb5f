import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, mkdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const sourceDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../tools/mongo-compat');

/** Where the binary for the current sources is cached (it may not be built yet). */
export async function mongoCompatBinaryPath(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of ['main.go', 'go.mod', 'go.sum']) hash.update(await readFile(join(sourceDir, file)));
  const cacheDir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'platform-testkit');
  return join(cacheDir, `mongo-compat-${hash.digest('hex').slice(0, 16)}`);
}

/**
 * Builds tools/mongo-compat (FerretDB embedded with its SQLite backend) with the Go toolchain
 * and caches the binary by a hash of its sources, so only the first run pays for the build.
 */
export async function ensureMongoCompatBinary(): Promise<string> {
  const binary = await mongoCompatBinaryPath();
  try {
    await access(binary);
    return binary;
  } catch {
    await mkdir(dirname(binary), { recursive: true });
    await run('go', ['build', '-o', binary, '.'], { cwd: sourceDir, maxBuffer: 16 * 1024 * 1024, timeout: 15 * 60_000 });
    return binary;
  }
}

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, mkdir, readdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The files a build of the program in `sourceDir` reads from it: its Go sources (tests aside), go.mod and go.sum. */
async function buildInputs(sourceDir: string): Promise<string[]> {
  const sources = (await readdir(sourceDir)).filter((file) => file.endsWith('.go') && !file.endsWith('_test.go')).sort();
  return [...sources, 'go.mod', 'go.sum'];
}

/** Where the binary of the Go program in `sourceDir` is cached for its current sources (it may not be built yet). */
export async function goBinaryPath(sourceDir: string, name: string): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await buildInputs(sourceDir)) hash.update(await readFile(join(sourceDir, file)));
  const cacheDir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'platform-testkit');
  return join(cacheDir, `${name}-${hash.digest('hex').slice(0, 16)}`);
}

/**
 * Builds the Go program in `sourceDir` (its .go files, go.mod, go.sum) with the Go toolchain and
 * caches the binary by a hash of its sources, so only the first run pays for the build.
 */
export async function ensureGoBinary(sourceDir: string, name: string): Promise<string> {
  const binary = await goBinaryPath(sourceDir, name);
  try {
    await access(binary);
    return binary;
  } catch {
    await mkdir(dirname(binary), { recursive: true });
    await run('go', ['build', '-o', binary, '.'], { cwd: sourceDir, maxBuffer: 16 * 1024 * 1024, timeout: 15 * 60_000 });
    return binary;
  }
}

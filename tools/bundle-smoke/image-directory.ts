import { execFile } from 'node:child_process';
import { access, cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A directory laid out like the image's /app: only what the Dockerfile's runtime stage copies
 * (`dist`, the built console as `console` when there is one, and the guides as `docs`), with the
 * packages the bundle leaves out installed by npm from dist/package.json, as the Dockerfile does.
 * Nothing of the workspace's node_modules is reachable from it.
 */
export async function prepareImageDirectory(distDir: string, consoleDir: string, docsDir: string): Promise<string> {
  try {
    await access(join(distDir, 'platform.mjs'));
  } catch {
    throw new Error(`${distDir}/platform.mjs is missing: run pnpm build first`);
  }
  const appDir = await mkdtemp(join(tmpdir(), 'platform-image-'));
  await cp(distDir, join(appDir, 'dist'), { recursive: true });
  const consoleBuilt = await access(consoleDir).then(
    () => true,
    () => false,
  );
  if (consoleBuilt) await cp(consoleDir, join(appDir, 'console'), { recursive: true });
  await cp(docsDir, join(appDir, 'docs'), { recursive: true });
  await run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: join(appDir, 'dist'), timeout: 120_000 });
  return appDir;
}

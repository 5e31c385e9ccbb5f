import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { imageBuildSettings } from '../../scripts/image-build-settings.mjs';
import { prepareImageDirectory } from '../../tools/bundle-smoke/image-directory';

const run = promisify(execFile);

/**
 * Whether the suites run the image's build (`BENCH_BUILD=image`: the bundle `pnpm build` makes,
 * which the container runs, so `docker compose` too) or the sources through tsx, as `pnpm start`
 * and `pnpm start:services` run them (the default).
 */
export function runsImageBuild(): boolean {
  const build = process.env.BENCH_BUILD ?? 'sources';
  if (build !== 'sources' && build !== 'image') throw new Error(`BENCH_BUILD must be sources or image, not ${build}`);
  return build === 'image';
}

/** The bundle of the working tree at `root` (`node scripts/bundle.mjs`) in an image-like directory; answers the directory. */
export async function imageOfWorkingTree(root: string): Promise<string> {
  await run(process.execPath, ['scripts/bundle.mjs'], { cwd: root, timeout: 300_000 });
  return prepareImageDirectory(join(root, 'dist'), join(root, 'apps/console/dist'), join(root, 'docs'));
}

/**
 * `entry` bundled as the platform is (the image's esbuild settings: one ESM file with its packages
 * inside), so a comparison with the image's build sets like against like; answers the bundle's path.
 */
export async function bundleLikeImage(entry: string): Promise<string> {
  const outfile = join(await mkdtemp(join(tmpdir(), 'bench-bundle-')), 'main.mjs');
  await build({ ...imageBuildSettings, entryPoints: [entry], outfile });
  return outfile;
}

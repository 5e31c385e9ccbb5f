// Bundles the process entry, and the operator commands (promote-owner, two-factor-off), each into one file for the
// container image (`pnpm build`).
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { imageBuildSettings } from './image-build-settings.mjs';

/**
 * Packages esbuild cannot put in the bundle stay imports, and dist/package.json names them at the
 * versions installed here, so the image installs exactly those (`npm install` in dist, see
 * Dockerfile). `pnpm test:bundle` starts the bundle from such an install, so a missing entry here
 * fails CI rather than the image.
 */
const externalPackages = [
  // a native binary
  { name: '@node-rs/argon2', from: 'services/identity/package.json' },
  // static assets read from its own directory
  { name: '@fastify/swagger-ui', from: 'libs/kit/package.json' },
  // loaded through createRequire (libs/storage/src/embedded/ordered-index.ts), which esbuild does not follow
  { name: 'sorted-btree', from: 'libs/storage/package.json' },
];

await build({
  entryPoints: { platform: 'platform/src/main.ts', 'promote-owner': 'services/identity/src/cli/promote-owner.ts', 'two-factor-off': 'services/identity/src/cli/two-factor-off.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  ...imageBuildSettings,
  external: externalPackages.map(({ name }) => name),
});

const dependencies = {};
for (const { name, from } of externalPackages) {
  const resolveFrom = createRequire(new URL(`../${from}`, import.meta.url));
  const manifest = JSON.parse(await readFile(resolveFrom.resolve(`${name}/package.json`), 'utf8'));
  dependencies[name] = manifest.version;
}
await writeFile('dist/package.json', `${JSON.stringify({ name: 'platform-dist', private: true, type: 'module', dependencies }, null, 2)}\n`);

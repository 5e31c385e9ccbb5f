// Bundles the process entry into one file for the container image (`pnpm build`).
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

/**
 * Packages that need their own files at run time (a native binary, static assets read from
 * their directory) cannot be bundled; they stay imports, and dist/package.json
 * names them at the versions installed here, so the image installs exactly those
 * (`npm install` in dist, see Dockerfile).
 */
const nativePackages = [
  { name: '@node-rs/argon2', from: 'services/identity/package.json' },
  { name: '@fastify/swagger-ui', from: 'libs/kit/package.json' },
];

await build({
  entryPoints: { platform: 'platform/src/main.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external: nativePackages.map(({ name }) => name),
  // Some dependencies are CommonJS and call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});

const dependencies = {};
for (const { name, from } of nativePackages) {
  const resolveFrom = createRequire(new URL(`../${from}`, import.meta.url));
  const manifest = JSON.parse(await readFile(resolveFrom.resolve(`${name}/package.json`), 'utf8'));
  dependencies[name] = manifest.version;
}
await writeFile('dist/package.json', `${JSON.stringify({ name: 'platform-dist', private: true, type: 'module', dependencies }, null, 2)}\n`);

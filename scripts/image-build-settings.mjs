// The esbuild settings of the image's bundle (scripts/bundle.mjs), which the benchmark's reference
// proxies are bundled with too (bench/src/image-build.ts), so a comparison sets like against like.
export const imageBuildSettings = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  // Some dependencies are CommonJS and call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
};

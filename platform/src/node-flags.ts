/**
 * Node flags every platform process runs with: `pnpm start`, the image's CMD (Dockerfile), the
 * local topology of `pnpm start:services`, the bundle smoke test and the benchmarks. A semi-space
 * of 64 MiB instead of V8's 16 lets the short-lived objects of a write (parsed bodies, events,
 * store copies, log lines) die young instead of being copied out: the all-in-one's PATCH load got
 * 1.06x to 1.08x the throughput at the same or lower CPU per PATCH, for at most about 100 MiB more
 * memory under load (BENCHMARKS.md, Documents). package.json and the Dockerfile repeat them
 * literally; node-flags.test.ts keeps them in step.
 */
export const PLATFORM_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

/**
 * Child process of `pnpm bench memory`: opens the embedded store in the given directory in a fresh
 * process and prints, as one JSON line, how long the open took and how much resident memory the
 * loaded store holds (after garbage collection, so only what stays).
 */
import { createEmbeddedStore } from '@platform/storage';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: store-open <dataDir>');
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with --expose-gc');
collect();
const before = process.memoryUsage().rss;
const store = await createEmbeddedStore({ dataDir });
collect();
const after = process.memoryUsage().rss;
const stats = store.stats();
await store.close();
process.stdout.write(`${JSON.stringify({ ...stats, residentBytes: after - before })}\n`);

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore, SyncClient, type LocalStore } from '@platform/sync-client';
import { FileStore } from '@platform/sync-client/file-store';
import { signedInClient } from '../api-client';
import { formatRow, writeSection } from '../report';
import { withPlatformProcess } from '../shapes';
import { median, percentile } from '../stats';

const RUNS = 3;
/** Documents created offline and then pushed; SYNC_PUSH_BENCH_DOCUMENTS overrides (a short check of the suite). */
const DOCUMENTS = Number(process.env.SYNC_PUSH_BENCH_DOCUMENTS ?? 5_000);
/** Documents in the FileStore copy whose local update is timed; SYNC_PUSH_BENCH_COPY overrides. */
const COPY = Number(process.env.SYNC_PUSH_BENCH_COPY ?? 50_000);
const UPDATES = 200;

async function inTemporaryDirectory<T>(run: (directory: string) => Promise<T>): Promise<T> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-sync-push-'));
  try {
    return await run(directory);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** DOCUMENTS inserts made offline (nothing is sent until sync), then the time of `sync()` pushing them. */
async function pushOnce(baseUrl: string, store: LocalStore): Promise<number> {
  const api = await signedInClient(baseUrl);
  const { id: projectId } = await api.call<{ id: string }>('POST', '/api/projects', { name: 'sync push bench' });
  const { id: typeId } = await api.call<{ id: string }>('POST', `/api/projects/${projectId}/types`, { name: 'Items' });
  const client = new SyncClient({ baseUrl, projectId, token: api.token, collections: [typeId], store, realtime: false });
  const items = client.collection(typeId);
  await Promise.all(Array.from({ length: DOCUMENTS }, (_, n) => items.insert({ title: `item ${n}`, n, tags: ['a', 'b'] })));
  const started = performance.now();
  await client.sync();
  const elapsed = performance.now() - started;
  const synced = items.list().filter((item) => items.state(item.id) === 'synced').length;
  await client.close();
  if (synced !== DOCUMENTS) throw new Error(`pushed ${synced} documents, expected ${DOCUMENTS}`);
  return elapsed;
}

/** p50 of a local `update()` on a FileStore copy of COPY documents (no server involved: the client never syncs). */
async function localUpdateP50(): Promise<number> {
  return inTemporaryDirectory(async (directory) => {
    const client = new SyncClient({ baseUrl: 'http://127.0.0.1:9', projectId: 'bench', collections: ['items'], store: await FileStore.open(directory), realtime: false });
    const items = client.collection('items');
    await Promise.all(Array.from({ length: COPY }, (_, n) => items.insert({ id: `i${n}`, title: `item ${n}`, n, tags: ['a', 'b'] })));
    const latencies: number[] = [];
    for (let n = 0; n < UPDATES; n += 1) {
      const started = performance.now();
      await items.update(`i${(n * 7919) % COPY}`, { title: `changed ${n}` });
      latencies.push(performance.now() - started);
    }
    await client.close();
    return percentile(latencies, 50);
  });
}

/**
 * Issue 33: an offline queue pushed through the bulk route, with the memory store and with
 * FileStore (each batch confirmed by one synchronized write), and a local update on a large
 * FileStore copy.
 */
export async function syncPush(): Promise<void> {
  const figures = await withPlatformProcess({ SERVICES: 'all' }, async (platform) => {
    const memory: number[] = [];
    const file: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      memory.push(await pushOnce(platform.url, new MemoryStore()));
      file.push(await inTemporaryDirectory(async (directory) => pushOnce(platform.url, await FileStore.open(directory))));
    }
    return { memory, file };
  });
  const update = await localUpdateP50();
  const ms = (values: number[]) => Math.round(median(values));
  const count = DOCUMENTS.toLocaleString('en-US');
  await writeSection(
    'sync-push',
    `## Sync push of an offline queue (issue 33)

Command: \`pnpm bench sync-push\`. ${count} documents are inserted while the client is not syncing,
then one \`sync()\` pushes them (batches of 500 through \`POST .../data/bulk\`) to the all-in-one
platform (one process, embedded store); the time is the median of ${RUNS} runs, each on a fresh
project. The local update is the p50 of ${UPDATES} \`update()\` calls on a FileStore copy of
${COPY.toLocaleString('en-US')} documents (appended to its log, compacted now and then).

| measure | ms | target |
|---|---|---|
${formatRow([`${count} offline inserts pushed, MemoryStore`, ms(figures.memory), 'under 3,000 ms'])}
${formatRow([`${count} offline inserts pushed, FileStore`, ms(figures.file), 'reported'])}
${formatRow([`local update() p50, FileStore with ${COPY.toLocaleString('en-US')} documents`, Math.round(update * 100) / 100, 'under 5 ms'])}`,
  );
  console.log(`sync-push: ${ms(figures.memory)} ms memory, ${ms(figures.file)} ms FileStore, update p50 ${update.toFixed(2)} ms`);
}

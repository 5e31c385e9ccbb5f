import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { documentsCollection, historyCollection, storeChange } from '@platform/documents';
import { createEmbeddedStore, type EmbeddedStoreStats } from '@platform/storage';
import { MemoryStore, SyncClient } from '@platform/sync-client';
import { forEachConcurrently, signedInClient } from '../api-client';
import { PLATFORM_V8_FLAGS } from '../processes';
import { openStream } from '../realtime-stream';
import { formatRow, writeSection } from '../report';
import { withPlatformProcess } from '../shapes';
import { median } from '../stats';

const DOCUMENTS = 10_000;
const STREAMS = 100;
const RUNS = 3;
/** Documents in the store-ceiling measure: entities and a history entry for each, as the data service writes them. */
const STORE_DOCUMENTS = Number(process.env.BENCH_STORE_DOCUMENTS ?? 300_000);
const MiB = 1024 * 1024;

/** Current and peak resident set of a process in MiB, from Linux's /proc (VmRSS, VmHWM). */
async function residentMiB(pid: number): Promise<{ current: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { current: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

interface MemoryRun {
  idle: number;
  loaded: number;
  peak: number;
}

/** One fresh all-in-one process: idle RSS, then 10,000 documents, 100 streams, writes fanned out to them and a full initial sync. */
function measureOnce(): Promise<MemoryRun> {
  // One bench user opens every stream from one address: above the default caps (docs/sync.md, Limits).
  return withPlatformProcess({ SERVICES: 'all', REALTIME_MAX_STREAMS_PER_USER: String(STREAMS), REALTIME_MAX_STREAMS_PER_ADDRESS: String(STREAMS) }, async (platform) => {
    const pid = platform.child.pid as number;
    const idle = (await residentMiB(pid)).current;
    const api = await signedInClient(platform.url);
    const { id: projectId } = await api.call<{ id: string }>('POST', '/api/projects', { name: 'memory bench' });
    const { id: typeId } = await api.call<{ id: string }>('POST', `/api/projects/${projectId}/types`, { name: 'Items' });
    const data = `/api/projects/${projectId}/types/${typeId}/data`;
    const numbers = Array.from({ length: DOCUMENTS - 100 }, (_, n) => n);
    await forEachConcurrently(numbers, 16, async (n) => void (await api.call('POST', data, { title: `item ${n}`, n, tags: ['a', 'b'] })));

    const streams = await Promise.all(Array.from({ length: STREAMS }, () => openStream(platform.url, api.token, projectId)));
    for (let n = 0; n < 100; n += 1) {
      const id = `fan${n}`;
      const arrivals = streams.map((stream) => stream.next(id));
      await api.call('POST', data, { id, n });
      await Promise.all(arrivals);
    }
    const client = new SyncClient({ baseUrl: platform.url, projectId, token: api.token, collections: [typeId], store: new MemoryStore(), realtime: false });
    await client.sync();
    const synced = client.collection(typeId).list().length;
    await client.close();
    if (synced !== DOCUMENTS) throw new Error(`initial sync got ${synced} documents, expected ${DOCUMENTS}`);
    const { current, peak } = await residentMiB(pid);
    for (const stream of streams) stream.close();
    return { idle, loaded: current, peak };
  });
}

/**
 * Writes `STORE_DOCUMENTS` documents to a fresh embedded store: half entities, half their history
 * records, in the data service's own stored shapes (a created entity with its emptied outbox, and
 * its creation's history record).
 */
async function fillStore(dataDir: string): Promise<void> {
  const store = await createEmbeddedStore({ dataDir, fsync: false });
  const collection = documentsCollection('p1', 'items');
  const entities = store.collection(collection);
  const history = store.collection(historyCollection(collection));
  const pairs = STORE_DOCUMENTS / 2;
  for (let start = 0; start < pairs; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, pairs - start) }, (_, k) => start + k);
    const now = Date.now();
    const fields = (n: number) => ({ title: `item ${n}`, n, tags: ['a', 'b'] });
    await store.atomically(async (section) => {
      await section.collection(entities.name).insertMany(batch.map((n) => ({ id: `item-${n}`, ...fields(n), revision: 0, createdAt: now, updatedAt: now, _outbox: [] })));
      await section.collection(history.name).insertMany(
        batch.map((n) => ({ id: `item-${n}:0`, entityId: `item-${n}`, ...storeChange({ userId: 'u1', timestamp: now, baseRevision: -1, modifier: { $set: fields(n) }, revision: 0 }) })),
      );
    });
  }
  await store.close();
}

/** Opens the store in a fresh process (store-open.ts) and reads what the open cost. */
async function openInFreshProcess(dataDir: string): Promise<EmbeddedStoreStats & { residentBytes: number }> {
  const script = fileURLToPath(new URL('../store-open.ts', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, [...PLATFORM_V8_FLAGS, '--expose-gc', '--import', 'tsx', script, dataDir], { encoding: 'utf8', maxBuffer: 1024 * 1024 });
  return JSON.parse(stdout) as EmbeddedStoreStats & { residentBytes: number };
}

/**
 * Issue 26: the embedded store's ceiling. Every document lives in memory, so the resident memory
 * per document and the open time per document say how far the all-in-one shape goes.
 */
async function storeCeiling(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-store-ceiling-'));
  try {
    await fillStore(dataDir);
    const opens: Array<EmbeddedStoreStats & { residentBytes: number }> = [];
    for (let run = 0; run < RUNS; run += 1) opens.push(await openInFreshProcess(dataDir));
    const resident = median(opens.map((open) => open.residentBytes));
    const loadMs = median(opens.map((open) => open.loadMs));
    const [first] = opens;
    const perGiB = Math.round((STORE_DOCUMENTS / resident) * 1024 * MiB);
    const perMillionMs = Math.round((loadMs / STORE_DOCUMENTS) * 1_000_000);
    await writeSection(
      'memory-store',
      `## The embedded store's ceiling (issue 26)

Command: \`pnpm bench memory\` (\`BENCH_STORE_DOCUMENTS\`, default 300,000). A fresh embedded store
is filled with ${STORE_DOCUMENTS.toLocaleString('en-US')} documents, half entities and half their history records as the
data service stores them (about 150 to 200 bytes of JSON each), then opened in a fresh process
${RUNS} times: the resident memory the open adds (after garbage collection) and the open's time,
median of the runs. The open replays the log and is CPU-bound, so its time grows with the
machine's load; the README's "When to move to the microservice shape" reads these figures.

| measure | value |
|---|---|
${formatRow(['log on disk', `${Math.round((first?.logBytes ?? 0) / MiB)} MiB`])}
${formatRow(['resident memory of the loaded store', `${Math.round(resident / MiB)} MiB (${Math.round(resident / STORE_DOCUMENTS)} bytes a document)`])}
${formatRow(['documents per GiB of memory', perGiB.toLocaleString('en-US')])}
${formatRow(['open time', `${loadMs} ms`])}
${formatRow(['open time per million documents', `${(perMillionMs / 1000).toFixed(1)} s`])}`,
    );
    console.log(`memory-store: ${perGiB} documents per GiB, ${perMillionMs} ms to open a million`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Issue 11: resident memory of the all-in-one process at 10,000 documents and 100 connected
 * realtime clients. All-in-one only: the figure is the footprint of the one process that hosts
 * every service, which the microservice shape does not have.
 */
export async function memory(): Promise<void> {
  const runs: MemoryRun[] = [];
  for (let run = 0; run < RUNS; run += 1) runs.push(await measureOnce());
  const mib = (pick: (run: MemoryRun) => number) => Math.round(median(runs.map(pick)));
  await writeSection(
    'memory',
    `## Memory of the all-in-one process (issue 11)

Command: \`pnpm bench memory\`. All-in-one shape only, by definition: the figure is the footprint
of the one process that hosts every service. A fresh all-in-one process (embedded store under a
temporary \`DATA_DIR\`, in-process bus) per run; ${DOCUMENTS.toLocaleString('en-US')} documents written through the API, ${STREAMS} realtime
streams connected, 100 writes each notified to every stream, then a fresh client's initial sync of
all documents. Resident set from \`/proc/{pid}/status\` (VmRSS, and VmHWM for the peak); median of
${RUNS} runs; the process includes tsx's loader.

| measure | MiB |
|---|---|
${formatRow(['idle after start', mib((run) => run.idle)])}
${formatRow([`after ${DOCUMENTS.toLocaleString('en-US')} documents and ${STREAMS} streams`, mib((run) => run.loaded)])}
${formatRow(['peak RSS over the run', mib((run) => run.peak)])}`,
  );
  console.log(`memory: peak ${mib((run) => run.peak)} MiB`);
  await storeCeiling();
}

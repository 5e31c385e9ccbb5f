import { MemoryStore, SyncClient } from '@platform/sync-client';
import { forEachConcurrently, signedInClient, type ApiClient } from '../api-client';
import { insertNewDocuments } from '../mongo-fixtures';
import { openStream } from '../realtime-stream';
import { formatRow, writeSection } from '../report';
import { withMicroservices, withPlatformProcess } from '../shapes';
import { median, percentile } from '../stats';

const RUNS = 3;
/** Sequential writes per run timed to their notification; SYNC_BENCH_WRITES overrides (a short check of the suite). */
const WRITES = Number(process.env.SYNC_BENCH_WRITES ?? 300);
/** Streams the fan-out writes are notified to; SYNC_BENCH_STREAMS overrides. */
const STREAMS = Number(process.env.SYNC_BENCH_STREAMS ?? 1_000);
const FANOUT_WRITES = 20;
/** Documents in the collection a fresh client syncs; SYNC_BENCH_DOCUMENTS overrides. */
const DOCUMENTS = Number(process.env.SYNC_BENCH_DOCUMENTS ?? 10_000);
/** One bench user opens every stream from one address: the caps must let it (docs/sync.md, Limits). */
const STREAM_LIMITS = { REALTIME_MAX_STREAMS_PER_USER: String(STREAMS + 10), REALTIME_MAX_STREAMS_PER_ADDRESS: String(STREAMS + 10), REALTIME_MAX_STREAMS: String(Math.max(STREAMS + 10, 10_000)) };


interface Percentiles {
  p50: number;
  p99: number;
}

interface ShapeFigures {
  notification: Percentiles[];
  fanout: Percentiles[];
  initialSyncMs: number[];
}

/** Adds `count` documents to the collection the initial sync reads; not what is measured. */
type Seed = (api: ApiClient, projectId: string, typeId: string, count: number) => Promise<void>;

const seedThroughApi: Seed = async (api, projectId, typeId, count) => {
  const numbers = Array.from({ length: count }, (_, n) => n);
  await forEachConcurrently(numbers, 16, async (n) => void (await api.call('POST', `/api/projects/${projectId}/types/${typeId}/data`, { title: `item ${n}`, n, tags: ['a', 'b'] })));
};

/** Straight into MongoDB (see insertNewDocuments). */
function seedIntoMongo(mongoUrl: string, database: string): Seed {
  return (_api, projectId, typeId, count) =>
    insertNewDocuments(mongoUrl, database, projectId, typeId, Array.from({ length: count }, (_, n) => ({ id: `seeded-${n}`, title: `item ${n}`, n, tags: ['a', 'b'] })));
}

/** RUNS runs of each measure against one shape's front door; the initial sync reads DOCUMENTS documents, seeded after the timed writes. */
async function measure(baseUrl: string, seed: Seed): Promise<ShapeFigures> {
  const api = await signedInClient(baseUrl);
  const { id: projectId } = await api.call<{ id: string }>('POST', '/api/projects', { name: 'sync bench' });
  const { id: typeId } = await api.call<{ id: string }>('POST', `/api/projects/${projectId}/types`, { name: 'Items' });
  const data = `/api/projects/${projectId}/types/${typeId}/data`;
  let written = 0;
  /** Registers `arrival` for the next document before writing it; answers the time from the write to the arrival. */
  const timedWrite = async (arrival: (id: string) => Promise<number>) => {
    const id = `w${written}`;
    written += 1;
    const arrived = arrival(id);
    const started = performance.now();
    await api.call('POST', data, { id, n: written });
    return (await arrived) - started;
  };
  const timedRuns = async (writes: number, arrival: (id: string) => Promise<number>) => {
    const runs: Percentiles[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const latencies: number[] = [];
      for (let n = 0; n < writes; n += 1) latencies.push(await timedWrite(arrival));
      runs.push({ p50: percentile(latencies, 50), p99: percentile(latencies, 99) });
    }
    return runs;
  };

  const stream = await openStream(baseUrl, api.token, projectId);
  const notification = await timedRuns(WRITES, (id) => stream.next(id));
  stream.close();
  const streams = await Promise.all(Array.from({ length: STREAMS }, () => openStream(baseUrl, api.token, projectId)));
  const fanout = await timedRuns(FANOUT_WRITES, async (id) => Math.max(...(await Promise.all(streams.map((s) => s.next(id))))));
  for (const s of streams) s.close();

  await seed(api, projectId, typeId, DOCUMENTS - written);
  // On MongoDB a pull answers only changes older than its 1 s settle margin (UpdatedAtClock); the
  // last timed writes must be past it for the count check below.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const initialSyncMs: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const client = new SyncClient({ baseUrl, projectId, token: api.token, collections: [typeId], store: new MemoryStore(), realtime: false });
    const started = performance.now();
    await client.sync();
    initialSyncMs.push(performance.now() - started);
    const count = client.collection(typeId).list().length;
    await client.close();
    if (count !== DOCUMENTS) throw new Error(`initial sync got ${count} documents, expected ${DOCUMENTS}`);
  }
  return { notification, fanout, initialSyncMs };
}

function rows(shape: string, figures: ShapeFigures): string[] {
  const ms = (values: number[]) => Math.round(median(values));
  const measured = (runs: Percentiles[]) => [ms(runs.map((run) => run.p50)), ms(runs.map((run) => run.p99))];
  return [
    formatRow([shape, `write → notification (${WRITES} sequential writes per run, 1 stream)`, ...measured(figures.notification), 'p99 < 100 ms']),
    formatRow([shape, `write → last of ${STREAMS.toLocaleString('en-US')} streams notified (${FANOUT_WRITES} writes per run)`, ...measured(figures.fanout), 'reported']),
    formatRow([shape, `initial sync of ${DOCUMENTS.toLocaleString('en-US')} documents into a fresh client (MemoryStore), one per run`, ms(figures.initialSyncMs), '', 'under 2,000 ms']),
  ];
}

/**
 * Issue 10: write-to-notification latency through the realtime channel, fan-out of one change to
 * many streams on one gateway, and the initial sync of a fresh client, in each shape.
 */
export async function syncRealtime(): Promise<void> {
  const single = await withPlatformProcess({ SERVICES: 'all', ...STREAM_LIMITS }, (platform) => measure(platform.url, seedThroughApi));
  const micro = await withMicroservices(STREAM_LIMITS, ({ gatewayUrl, backendUrls, database }) => measure(gatewayUrl, seedIntoMongo(backendUrls.mongo, database)));
  await writeSection(
    'sync-realtime',
    `## Sync and realtime notifications (issue 10)

Command: \`pnpm bench sync-realtime\`. The streams are Server-Sent Events of
\`project:{projectId}:sync\` on the gateway, read by the benchmark process. The latencies stop when
the notification arrives, before the client's pull debounce. Each measure runs ${RUNS} times in the
same process; p50 and p99 are the median over the runs of each run's p50 and p99, the initial
sync the median of its ${RUNS} times. All-in-one: one process on the embedded store and in-process
bus; the documents the initial sync reads are written through the API. Microservices: writes go
through the gateway to the data process, notifications over NATS to the gateway; each service its
own process on the MongoDB stand-in named below, with Redis, all sharing the same 2 cores with
the benchmark; the documents the initial sync reads, beyond those the timed writes made, are
inserted straight into MongoDB as the data service stores new ones (a FerretDB stand-in takes milliseconds to tens of
milliseconds per sequential write).

| shape | measure | p50 ms | p99 ms | target |
|---|---|---|---|---|
${rows('all-in-one', single).join('\n')}
${rows('microservices', micro).join('\n')}`,
  );
  const sync = (figures: ShapeFigures) => Math.round(median(figures.initialSyncMs));
  console.log(`sync-realtime: initial sync ${sync(single)} ms all-in-one, ${sync(micro)} ms microservices`);
}

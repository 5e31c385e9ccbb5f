import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedStore, createMongoStore, type DocumentStore } from '@platform/storage';
import { apiRequest, signedInClient, type ApiClient } from '../api-client';
import { compareLoads, type LoadResult } from '../load';
import { formatRow, loadRow, writeSection } from '../report';
import { withMicroservices, withPlatformProcess } from '../shapes';
import { median, percentile } from '../stats';

/** Sequential writes timed to their appearance in the trail; AUDIT_BENCH_WRITES overrides (a short check of the suite). */
const WRITES = Number(process.env.AUDIT_BENCH_WRITES ?? 1_000);
/**
 * The million on a real MongoDB (MONGO_URL); the local FerretDB test server takes hours to
 * load that many, so without MONGO_URL the default is 100,000. AUDIT_BENCH_ITEMS overrides both.
 */
const SEEDED_ITEMS = Number(process.env.AUDIT_BENCH_ITEMS ?? (process.env.MONGO_URL ? 1_000_000 : 100_000));
const SEED_BATCH = 5_000;
const EMBEDDED_ITEMS = Number(process.env.AUDIT_BENCH_EMBEDDED_ITEMS ?? 1_000_000);

/** Write-to-visible runs per shape; each figure is the median of the runs' figures. */
const RUNS = 3;

interface VisibilityRun {
  p50: number;
  p99: number;
}

/** Each write, then polls the trail until that change is its newest item; answers the latencies (ms). */
async function writeToVisible(api: ApiClient, projectId: string): Promise<number[]> {
  const latencies: number[] = [];
  for (let n = 0; n < WRITES; n += 1) {
    const started = performance.now();
    const created = await api.call<{ id: string }>('POST', `/api/projects/${projectId}/types/orders/data`, { title: `Order ${n}` });
    for (;;) {
      const page = await api.call<{ items: Array<{ entityId: string }> }>('GET', `/api/projects/${projectId}/audit-trail?typeId=orders&limit=1`);
      if (page.items[0]?.entityId === created.id) break;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

/** RUNS runs of WRITES write-to-visible timings in a fresh project: each run's p50 and p99. */
async function visibilityRuns(baseUrl: string): Promise<VisibilityRun[]> {
  const api = await signedInClient(baseUrl);
  const project = await api.call<{ id: string }>('POST', '/api/projects', { name: 'Audit bench' });
  await api.call('POST', `/api/projects/${project.id}/types`, { id: 'orders', name: 'Orders' });
  const runs: VisibilityRun[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const latencies = await writeToVisible(api, project.id);
    runs.push({ p50: percentile(latencies, 50), p99: percentile(latencies, 99) });
  }
  return runs;
}

/** `count` items written straight to the trail collection (20 users, 50 types, the three change types, one per second); closes the store. */
async function seedTrail(store: DocumentStore, projectId: string, count: number): Promise<void> {
  try {
    const items = store.collection('audit-trail');
    const start = Date.UTC(2025, 0, 1);
    for (let offset = 0; offset < count; offset += SEED_BATCH) {
      const batch = Array.from({ length: Math.min(SEED_BATCH, count - offset) }, (_, k) => {
        const n = offset + k;
        const typeId = `type${n % 50}`;
        const changeType = (['created', 'updated', 'deleted'] as const)[n % 3];
        return {
          id: `tenant-${projectId}-${typeId}/e${n}/0`,
          projectId,
          entityKey: `tenant-${projectId}-${typeId}/e${n}`,
          revision: 0,
          entityId: `e${n}`,
          entityTitle: `Entity ${n}`,
          entityTypeId: typeId,
          entityTypeName: `Type ${n % 50}`,
          changeType,
          changeDescription: `audit.${changeType}`,
          userId: `user${n % 20}`,
          userDisplayName: `User ${n % 20}`,
          timestamp: start + n * 1_000,
          access: n % 10 === 0 ? { read: { userIds: ['someone-else'] } } : {},
          accessRevision: 0,
        };
      });
      await items.insertMany(batch);
    }
  } finally {
    await store.close();
  }
}

/** The three filtered pages of the issue, loaded as the project owner. */
function filteredPages(baseUrl: string, projectId: string, token: string): Promise<Record<string, LoadResult>> {
  const trail = `${baseUrl}/api/projects/${projectId}/audit-trail`;
  const headers = { authorization: `Bearer ${token}` };
  // The target is a page's latency, so one client asks one page at a time (32 connections would
  // measure the queue in front of the store instead).
  const connections = 1;
  return compareLoads({
    byType: { url: `${trail}?typeId=type7&page=3`, headers, connections },
    byUserAndChange: { url: `${trail}?userId=user3&changeType=updated&page=2`, headers, connections },
    byTypeAndRange: { url: `${trail}?typeId=type7&from=${Date.UTC(2025, 0, 2)}&to=${Date.UTC(2025, 0, 5)}`, headers, connections },
  });
}

/**
 * All-in-one on the embedded store: the owner and project are made through the API, the process
 * stops, EMBEDDED_ITEMS are written into its DATA_DIR, and it starts again on them.
 */
async function embeddedPages(): Promise<Record<string, LoadResult>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-audit-'));
  const credentials = { email: `bench-${Date.now()}@example.org`, password: 'benchmark password' };
  try {
    const projectId = await withPlatformProcess({ SERVICES: 'all', DATA_DIR: dataDir }, async (first) => {
      const { token } = await apiRequest<{ token: string }>(first.url, 'POST', '/api/auth/register', undefined, credentials);
      return (await apiRequest<{ id: string }>(first.url, 'POST', '/api/projects', token, { name: 'Audit bench, embedded' })).id;
    });
    await seedTrail(await createEmbeddedStore({ dataDir }), projectId, EMBEDDED_ITEMS);
    return await withPlatformProcess({ SERVICES: 'all', DATA_DIR: dataDir }, async (second) => {
      const { token } = await apiRequest<{ token: string }>(second.url, 'POST', '/api/auth/login', undefined, credentials);
      return filteredPages(second.url, projectId, token);
    });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

function row(shape: string, target: string, result: LoadResult): string {
  if (result.requestsPerSecond === 0 && result.p99Ms === 0) return formatRow([shape, target, 'no answer within the 5 s run', '', '', '']);
  return loadRow(shape, target, result);
}

/**
 * Audit trail (issue 5): write-to-visible latency (write, then poll the trail until the change is
 * listed) in both shapes, and filtered pages over a trail of SEEDED_ITEMS items in the
 * microservice shape (MongoDB, NATS, Redis; one process per service) and EMBEDDED_ITEMS items in
 * the all-in-one shape.
 */
export async function auditTrail(): Promise<void> {
  const { visibility, pages } = await withMicroservices({}, async ({ gatewayUrl, backendUrls, database }) => {
    const runs = await visibilityRuns(gatewayUrl);
    const api = await signedInClient(gatewayUrl);
    const big = await api.call<{ id: string }>('POST', '/api/projects', { name: 'Audit bench, a large trail' });
    await seedTrail(await createMongoStore({ url: backendUrls.mongo, database }), big.id, SEEDED_ITEMS);
    return { visibility: runs, pages: await filteredPages(gatewayUrl, big.id, api.token) };
  });
  const visibilityAllInOne = await withPlatformProcess({ SERVICES: 'all' }, (platform) => visibilityRuns(platform.url));
  const embedded = await embeddedPages();
  const figure = (runs: VisibilityRun[], pick: (run: VisibilityRun) => number) => Math.round(median(runs.map(pick)) * 10) / 10;
  const visibilityRow = (shape: string, runs: VisibilityRun[], target: string) => formatRow([shape, WRITES, figure(runs, (run) => run.p50), figure(runs, (run) => run.p99), target]);
  await writeSection(
    'audit-trail',
    `## Audit trail (issue 5)

Command: \`pnpm bench audit-trail\`. Microservice shape (local processes per docker-compose.yml;
the MongoDB stand-in named below, NATS JetStream, Redis).

Write-to-visible: ${RUNS} runs per shape of ${WRITES} sequential \`POST .../data\`, each followed by
polling \`GET .../audit-trail?typeId=orders&limit=1\` until the new change is the newest item;
measured from sending the write; each figure is the median of the ${RUNS} runs' figures.
Microservices: the event crosses NATS JetStream to the audit process, which writes the item to
the shared MongoDB stand-in. All-in-one: one process, in-process bus, embedded store.

| shape | writes per run | p50 ms | p99 ms | target |
|---|---|---|---|---|
${visibilityRow('microservices', visibility, 'p99 < 200 ms')}
${visibilityRow('all-in-one', visibilityAllInOne, '')}

Filtered pages (limit 50, total counted), one client asking one page at a time (latency, not a
queue of 32), as the project owner, over a project trail of 20
users, 50 types, the three change types, 10% of items restricted by RLS; target p50 < 50 ms at
1,000,000 items. Microservice shape: ${SEEDED_ITEMS.toLocaleString('en-US')} items (the local
FerretDB takes hours to load a million and answers these queries without its indexes; with
\`MONGO_URL\` the run uses a million). All-in-one: ${EMBEDDED_ITEMS.toLocaleString('en-US')} items on the embedded store.

| shape | query | req/s | p50 ms | p99 ms | non-2xx + errors |
|---|---|---|---|---|---|
${row('microservices', 'typeId, page 3', pages.byType!)}
${row('microservices', 'userId + changeType, page 2', pages.byUserAndChange!)}
${row('microservices', 'typeId + from/to', pages.byTypeAndRange!)}
${row('all-in-one', 'typeId, page 3', embedded.byType!)}
${row('all-in-one', 'userId + changeType, page 2', embedded.byUserAndChange!)}
${row('all-in-one', 'typeId + from/to', embedded.byTypeAndRange!)}`,
  );
  console.log(`audit trail: write-to-visible p99 ${figure(visibility, (run) => run.p99)} ms (microservices), ${figure(visibilityAllInOne, (run) => run.p99)} ms (all-in-one); filtered page p50 ${pages.byType!.p50Ms} ms (microservices), ${embedded.byType!.p50Ms} ms (all-in-one)`);
}

import { randomBytes } from 'node:crypto';
import { startLocalTopology } from '@platform/platform';
import { createMongoStore } from '@platform/storage';
import { startBackendServers } from '@platform/testkit/servers';
import { signedInClient, type ApiClient } from '../api-client';
import { compareLoads, type LoadResult } from '../load';
import { formatRow, writeSection } from '../report';

const WRITES = 1_000;
/**
 * The million on a real MongoDB (MONGO_URL); the local FerretDB test server takes hours to
 * load that many, so without MONGO_URL the default is 100,000. AUDIT_BENCH_ITEMS overrides both.
 */
const SEEDED_ITEMS = Number(process.env.AUDIT_BENCH_ITEMS ?? (process.env.MONGO_URL ? 1_000_000 : 100_000));
const SEED_BATCH = 5_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
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

/** SEEDED_ITEMS written straight to the trail collection: 20 users, 50 types, the three change types, one per second. */
async function seedTrail(mongoUrl: string, database: string, projectId: string): Promise<void> {
  const store = await createMongoStore({ url: mongoUrl, database });
  try {
    const items = store.collection('audit-trail');
    const start = Date.UTC(2025, 0, 1);
    for (let offset = 0; offset < SEEDED_ITEMS; offset += SEED_BATCH) {
      const batch = Array.from({ length: SEED_BATCH }, (_, k) => {
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

function row(target: string, result: LoadResult): string {
  return formatRow([target, Math.round(result.requestsPerSecond), result.p50Ms, result.p99Ms, result.non2xx + result.errors]);
}

/**
 * Audit trail (issue 5), microservice shape (MongoDB, NATS, Redis; one process per service):
 * write-to-visible latency over 1,000 sequential writes (write, then poll the trail until the
 * change is listed), and filtered pages over a trail of SEEDED_ITEMS items.
 */
export async function auditTrail(): Promise<void> {
  const backends = await startBackendServers();
  const database = `bench_audit_${randomBytes(4).toString('hex')}`;
  let latencies: number[];
  let pages: Record<string, LoadResult>;
  try {
    const topology = await startLocalTopology({ backendUrls: backends.urls, extraEnvironment: { LOG_LEVEL: 'warn', MONGO_DATABASE: database } });
    try {
      const base = topology.gatewayUrl;
      const api = await signedInClient(base);
      const project = await api.call<{ id: string }>('POST', '/api/projects', { name: 'Audit bench' });
      await api.call('POST', `/api/projects/${project.id}/types`, { id: 'orders', name: 'Orders' });
      latencies = await writeToVisible(api, project.id);

      const big = await api.call<{ id: string }>('POST', '/api/projects', { name: 'Audit bench, a large trail' });
      await seedTrail(backends.urls.mongo, database, big.id);
      const trail = `${base}/api/projects/${big.id}/audit-trail`;
      const headers = { authorization: `Bearer ${api.token}` };
      pages = await compareLoads({
        byType: { url: `${trail}?typeId=type7&page=3`, headers },
        byUserAndChange: { url: `${trail}?userId=user3&changeType=updated&page=2`, headers },
        byTypeAndRange: { url: `${trail}?typeId=type7&from=${Date.UTC(2025, 0, 2)}&to=${Date.UTC(2025, 0, 5)}`, headers },
      });
    } finally {
      await topology.stop();
    }
  } finally {
    await backends.stop();
  }
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  await writeSection(
    'audit-trail',
    `## Audit trail (issue 5)

Command: \`pnpm bench audit-trail\`. Microservice shape (local processes per docker-compose.yml;
MongoDB-compatible server, NATS JetStream, Redis).

Write-to-visible: ${WRITES} sequential \`POST .../data\`, each followed by polling
\`GET .../audit-trail?typeId=orders&limit=1\` until the new change is the newest item; measured
from sending the write.

| writes | p50 ms | p99 ms | target |
|---|---|---|---|
${formatRow([WRITES, Math.round(p50 * 10) / 10, Math.round(p99 * 10) / 10, 'p99 < 200 ms'])}

Filtered pages (limit 50, total counted) over a project trail of ${SEEDED_ITEMS.toLocaleString('en-US')} items
(20 users, 50 types, 10% of items restricted by RLS), as the project owner; target p50 < 50 ms
at 1,000,000 items (what the run uses without \`MONGO_URL\`, and why: see the suite's SEEDED_ITEMS).

| query | req/s | p50 ms | p99 ms | non-2xx + errors |
|---|---|---|---|---|
${row('typeId, page 3', pages.byType!)}
${row('userId + changeType, page 2', pages.byUserAndChange!)}
${row('typeId + from/to', pages.byTypeAndRange!)}`,
  );
  console.log(`audit trail: write-to-visible p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; filtered page p50 ${pages.byType!.p50Ms} ms`);
}

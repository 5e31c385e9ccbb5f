import { MemoryStore, SyncClient } from '@platform/sync-client';
import { forEachConcurrently, signedInClient } from '../api-client';
import { startPlatformProcess } from '../processes';
import { openStream } from '../realtime-stream';
import { formatRow, writeSection } from '../report';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);
};

/**
 * Issue 10: write-to-notification latency through the realtime channel, initial sync of 10,000
 * documents into a fresh client, and fan-out of one change to 1,000 streams on one gateway.
 * All-in-one process, embedded store, in-process bus.
 */
export async function syncRealtime(): Promise<void> {
  const platform = await startPlatformProcess({ SERVICES: 'all' });
  const rows: string[] = [];
  let initialSyncMs = 0;
  try {
    const api = await signedInClient(platform.url);
    const { id: projectId } = await api.call<{ id: string }>('POST', '/api/projects', { name: 'sync bench' });
    const { id: typeId } = await api.call<{ id: string }>('POST', `/api/projects/${projectId}/types`, { name: 'Items' });
    const data = `/api/projects/${projectId}/types/${typeId}/data`;

    const stream = await openStream(platform.url, api.token, projectId);
    const latencies: number[] = [];
    for (let n = 0; n < 300; n += 1) {
      const id = `lat${n}`;
      const arrived = stream.next(id);
      const started = performance.now();
      await api.call('POST', data, { id, n });
      latencies.push((await arrived) - started);
    }
    stream.close();
    rows.push(formatRow(['write → notification (300 sequential writes, 1 stream)', percentile(latencies, 50), percentile(latencies, 99), 'p99 < 100 ms']));

    const fanout = await Promise.all(Array.from({ length: 1_000 }, () => openStream(platform.url, api.token, projectId)));
    const lastDelivery: number[] = [];
    for (let n = 0; n < 20; n += 1) {
      const id = `fan${n}`;
      const arrivals = fanout.map((s) => s.next(id));
      const started = performance.now();
      await api.call('POST', data, { id, n });
      lastDelivery.push(Math.max(...(await Promise.all(arrivals))) - started);
    }
    for (const s of fanout) s.close();
    rows.push(formatRow(['write → last of 1,000 streams notified (20 writes)', percentile(lastDelivery, 50), percentile(lastDelivery, 99), 'reported']));

    const seeded = Array.from({ length: 10_000 - 320 }, (_, n) => n);
    await forEachConcurrently(seeded, 16, async (n) => void (await api.call('POST', data, { title: `item ${n}`, n, tags: ['a', 'b'] })));
    const client = new SyncClient({ baseUrl: platform.url, projectId, token: api.token, collections: [typeId], store: new MemoryStore(), realtime: false });
    const started = performance.now();
    await client.sync();
    initialSyncMs = Math.round(performance.now() - started);
    const count = client.collection(typeId).list().length;
    await client.close();
    if (count !== 10_000) throw new Error(`initial sync got ${count} documents, expected 10000`);
    rows.push(formatRow(['initial sync of 10,000 documents into a fresh client (MemoryStore)', initialSyncMs, initialSyncMs, 'under 2,000 ms']));
  } finally {
    await platform.stop();
  }
  await writeSection(
    'sync-realtime',
    `## Sync and realtime notifications (issue 10)

Command: \`pnpm bench sync-realtime\`. All-in-one process (embedded store, in-process bus); the
streams are Server-Sent Events of \`project:{projectId}:sync\` read by the benchmark process. The
latencies stop when the notification arrives, before the client's pull debounce.

| measure | p50 ms | p99 ms | target |
|---|---|---|---|
${rows.join('\n')}`,
  );
  console.log(`sync-realtime: initial sync ${initialSyncMs} ms`);
}

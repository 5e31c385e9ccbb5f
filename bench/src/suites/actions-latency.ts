import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { signedInClient } from '../api-client';
import { startPlatformProcess } from '../processes';
import { formatRow, writeSection } from '../report';

const WRITES = 500;
const WARM_UP = 20;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/**
 * Trigger-to-completion latency of a 3-block action (issue 7): conditional-logic → update-database
 * → call-webhook, triggered by documentCreated. Each write is timed from just before its POST to
 * the moment the action's last block (the webhook) reaches a receiver in this process; writes go
 * one at a time so the figure is latency, not queueing.
 */
export async function actionsLatency(): Promise<void> {
  const arrivals = new Map<string, (at: number) => void>();
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const at = performance.now();
      response.writeHead(204).end();
      const id = (JSON.parse(body) as { id?: string }).id;
      if (id) arrivals.get(id)?.(at);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/done`;

  const latencies: number[] = [];
  const platform = await startPlatformProcess({
    SERVICES: 'all',
    ACTIONS_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
    ACTIONS_WEBHOOK_SECRET: 'benchmark-webhook-secret',
  });
  try {
    const client = await signedInClient(platform.url);
    const project = await client.call<{ id: string }>('POST', '/api/projects', { name: 'Actions benchmark' });
    const projectPath = `/api/projects/${project.id}`;
    await client.call('POST', `${projectPath}/types`, { id: 'orders', name: 'Orders' });
    await client.call('POST', `${projectPath}/actions`, {
      title: 'Check, stamp, notify',
      triggers: [{ id: 'created', triggerName: 'documentCreated', configuration: { typeId: 'orders' } }],
      blocks: [
        { id: 'check', blockName: 'conditional-logic', configuration: { path: 'data.document.total', operator: 'greaterThan', value: 0 } },
        { id: 'stamp', blockName: 'update-database', configuration: { modifier: { $set: { checked: true } } } },
        { id: 'notify', blockName: 'call-webhook', configuration: { url: hook, timeoutMs: 5_000 } },
      ],
      connections: [
        { sourceBlockId: 'check', sourceSocketName: 'true', targetBlockId: 'stamp', targetSocketName: 'data' },
        { sourceBlockId: 'stamp', sourceSocketName: 'document', targetBlockId: 'notify', targetSocketName: 'body' },
      ],
    });

    for (let i = 0; i < WARM_UP + WRITES; i += 1) {
      const id = `order-${i}`;
      const arrived = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the action did not complete for ${id} within 10 s`)), 10_000);
        arrivals.set(id, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
      const started = performance.now();
      await client.call('POST', `${projectPath}/types/orders/data`, { id, total: i + 1 });
      const finished = await arrived;
      arrivals.delete(id);
      if (i >= WARM_UP) latencies.push(finished - started);
    }
  } finally {
    await platform.stop();
    receiver.close();
  }

  latencies.sort((a, b) => a - b);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  await writeSection(
    'actions-latency',
    `## Action trigger-to-completion latency (issue 7)

Command: \`pnpm bench actions-latency\`. All-in-one process (embedded store, in-process bus). One
action on \`documentCreated\` with 3 blocks in a chain: conditional-logic → update-database (writes
the created document as the action owner, which publishes its own event) → call-webhook (POSTs
the updated document, signed, to a receiver in the benchmark process). Each of ${WRITES} writes (after
${WARM_UP} warm-up writes) is timed from just before its \`POST .../data\` to the webhook's arrival,
one write at a time.

| writes | p50 ms | p99 ms | min ms | max ms |
|---|---|---|---|---|
${formatRow([latencies.length, Math.round(p50 * 10) / 10, Math.round(p99 * 10) / 10, Math.round((latencies[0] as number) * 10) / 10, Math.round((latencies[latencies.length - 1] as number) * 10) / 10])}`,
  );
  console.log(`actions trigger-to-completion: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms over ${latencies.length} writes`);
}

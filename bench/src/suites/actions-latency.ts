import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { signedInClient } from '../api-client';
import { formatRow, writeSection } from '../report';
import { withMicroservices, withPlatformProcess } from '../shapes';
import { median, percentile } from '../stats';

/** Timed writes per run; ACTIONS_BENCH_WRITES overrides (a short check of the suite). */
const WRITES = Number(process.env.ACTIONS_BENCH_WRITES ?? 500);
const WARM_UP = 20;
const RUNS = 3;
const WEBHOOK_ENVIRONMENT = { ACTIONS_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', ACTIONS_WEBHOOK_SECRET: 'benchmark-webhook-secret' };

interface RunFigures {
  p50: number;
  p99: number;
  min: number;
  max: number;
}

/** The figures of each run in one shape. */
interface ShapeResult {
  runs: RunFigures[];
}

/** An HTTP receiver in this process for the action's webhook: `arrival(id)` resolves when the body with that document id arrives. */
async function startReceiver() {
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
  return {
    hook: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/done`,
    arrival: (id: string) =>
      new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the action did not complete for ${id} within 10 s`)), 10_000);
        arrivals.set(id, (at) => {
          clearTimeout(timer);
          arrivals.delete(id);
          resolve(at);
        });
      }),
    close: () => new Promise<void>((resolve) => receiver.close(() => resolve())),
  };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Sets up the action in a fresh project, writes WARM_UP documents, then RUNS runs of WRITES timed writes, one at a time. */
async function measure(baseUrl: string, receiver: Receiver): Promise<ShapeResult> {
  const client = await signedInClient(baseUrl);
  const project = await client.call<{ id: string }>('POST', '/api/projects', { name: 'Actions benchmark' });
  const projectPath = `/api/projects/${project.id}`;
  await client.call('POST', `${projectPath}/types`, { id: 'orders', name: 'Orders' });
  const action = {
    title: 'Check, stamp, notify',
    triggers: [{ id: 'created', triggerName: 'documentCreated', configuration: { typeId: 'orders' } }],
    blocks: [
      { id: 'check', blockName: 'conditional-logic', configuration: { path: 'data.document.total', operator: 'greaterThan', value: 0 } },
      { id: 'stamp', blockName: 'update-database', configuration: { modifier: { $set: { checked: true } } } },
      { id: 'notify', blockName: 'call-webhook', configuration: { url: receiver.hook, timeoutMs: 5_000 } },
    ],
    connections: [
      { sourceBlockId: 'check', sourceSocketName: 'true', targetBlockId: 'stamp', targetSocketName: 'data' },
      { sourceBlockId: 'stamp', sourceSocketName: 'document', targetBlockId: 'notify', targetSocketName: 'body' },
    ],
  };
  await client.call('POST', `${projectPath}/actions`, action);

  let written = 0;
  const timedWrite = async () => {
    const id = `order-${written}`;
    written += 1;
    const arrived = receiver.arrival(id);
    const started = performance.now();
    await client.call('POST', `${projectPath}/types/orders/data`, { id, total: written });
    return (await arrived) - started;
  };
  for (let i = 0; i < WARM_UP; i += 1) await timedWrite();
  const runs: RunFigures[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const latencies: number[] = [];
    for (let i = 0; i < WRITES; i += 1) latencies.push(await timedWrite());
    latencies.sort((a, b) => a - b);
    runs.push({ p50: percentile(latencies, 50), p99: percentile(latencies, 99), min: latencies[0] as number, max: latencies[latencies.length - 1] as number });
  }
  return { runs };
}

function row(shape: string, result: ShapeResult): string {
  const { runs } = result;
  const figure = (pick: (run: RunFigures) => number) => Math.round(median(runs.map(pick)) * 10) / 10;
  return formatRow([shape, WRITES, figure((run) => run.p50), figure((run) => run.p99), figure((run) => run.min), figure((run) => run.max)]);
}

/**
 * Trigger-to-completion latency of a 3-block action (issue 7): conditional-logic → update-database
 * → call-webhook, triggered by documentCreated, in each shape. Each write is timed from just
 * before its POST to the moment the action's last block (the webhook) reaches a receiver in this
 * process; writes go one at a time so the figure is latency, not queueing.
 */
export async function actionsLatency(): Promise<void> {
  const receiver = await startReceiver();
  let single: ShapeResult;
  let micro: ShapeResult;
  try {
    single = await withPlatformProcess({ SERVICES: 'all', ...WEBHOOK_ENVIRONMENT }, (platform) => measure(platform.url, receiver));
    micro = await withMicroservices(WEBHOOK_ENVIRONMENT, ({ gatewayUrl }) => measure(gatewayUrl, receiver));
  } finally {
    await receiver.close();
  }
  await writeSection(
    'actions-latency',
    `## Action trigger-to-completion latency (issue 7)

Command: \`pnpm bench actions-latency\`. One action on \`documentCreated\` with 3 blocks in a chain:
conditional-logic → update-database (writes the created document as the action owner, which
publishes its own event) → call-webhook (POSTs the updated document, signed, to a receiver in the
benchmark process). After ${WARM_UP} warm-up writes, ${RUNS} runs of ${WRITES} writes each, one write at a
time, each timed from just before its \`POST .../data\` to the webhook's arrival; every figure is
the median over the ${RUNS} runs of that run's figure. All-in-one: one process on the embedded store
and in-process bus. Microservices: the write goes through the gateway to the data process, its
event over NATS JetStream to the actions process, which updates the document with the data
service's write path on the shared MongoDB stand-in named below and calls the webhook; each
service its own process, with Redis, all sharing the same 2 cores with the benchmark.

| shape | writes per run | p50 ms | p99 ms | min ms | max ms |
|---|---|---|---|---|---|
${row('all-in-one', single)}
${row('microservices', micro)}`,
  );
  const p50 = (result: ShapeResult) => `${median(result.runs.map((run) => run.p50)).toFixed(1)} ms`;
  console.log(`actions trigger-to-completion p50 (median of ${RUNS} runs of ${WRITES} writes): all-in-one ${p50(single)}, microservices ${p50(micro)}`);
}

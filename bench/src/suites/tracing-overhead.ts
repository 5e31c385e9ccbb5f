import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { patchLoad, PATCH_DOCUMENTS } from './data-documents';
import { compareLoads, pairedRatio } from '../load';
import { loadRow, writeSection } from '../report';
import { withPlatformProcess } from '../shapes';

/** The bar: PATCH throughput with tracing on at least this share of off. */
const TARGET_RATIO = 0.9;
/** Rounds per process: the target is a ratio, taken round by round (pairedRatio). */
const ROUNDS = 5;

/** An OTLP/HTTP collector stand-in: accepts every export and counts the requests, so exporting costs what it costs without a backend. */
async function startCollectorStub(): Promise<{ url: string; exports: () => number; close(): Promise<void> }> {
  let exports = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      exports += 1;
      // An empty body is a complete answer in both OTLP encodings (protobuf and JSON).
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports: () => exports,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What an operator who samples sets: 1 in 10 new traces recorded, a caller's decision followed. */
const SAMPLED = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' };

/**
 * `pnpm bench tracing-overhead`: three all-in-one processes side by side under the same PATCH load
 * as data-documents, measured interleaved: one with no OTEL_* variable, one exporting over
 * OTLP/HTTP to a local collector stub with the default configuration (every trace recorded: the
 * target's), and one exporting 1 in 10 traces (what it costs as operators run it; reported).
 */
export async function tracingOverhead(): Promise<void> {
  const collector = await startCollectorStub();
  try {
    const results = await withPlatformProcess({}, async (off) =>
      withPlatformProcess({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url }, async (on) =>
        withPlatformProcess({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, ...SAMPLED }, async (sampled) =>
          compareLoads({ off: await patchLoad(off.url), on: await patchLoad(on.url), sampled: await patchLoad(sampled.url) }, ROUNDS),
        ),
      ),
    );
    const ratio = pairedRatio(results.on!.roundsPerSecond, results.off!.roundsPerSecond);
    const sampledRatio = pairedRatio(results.sampled!.roundsPerSecond, results.off!.roundsPerSecond);
    const ofMedians = results.on!.requestsPerSecond / results.off!.requestsPerSecond;
    if (collector.exports() === 0) throw new Error('the traced process exported no spans: the comparison would measure nothing');
    await writeSection(
      'tracing-overhead',
      `## Tracing overhead

Command: \`pnpm bench tracing-overhead\`. All-in-one, 32 connections, the PATCH load of
data-documents (${PATCH_DOCUMENTS.toLocaleString('en-US')} documents, each request a real write with history and an event that
audit, actions and the realtime notifier consume). *off*: no \`OTEL_*\` variable (no tracer
provider). *on*: only \`OTEL_EXPORTER_OTLP_ENDPOINT\` set, to a local OTLP/HTTP stub: the default
configuration, every trace recorded (\`parentbased_always_on\`), its spans (the request, store
writes, outbox drain, publish, the three consumers) exported in protobuf batches
(${collector.exports()} export requests from both traced processes). Target: on ≥ ${TARGET_RATIO}× off.
*1 in 10*: the same with \`OTEL_TRACES_SAMPLER=parentbased_traceidratio\`,
\`OTEL_TRACES_SAMPLER_ARG=0.1\` (reported, no target).

| shape | tracing | req/s | p50 ms | p99 ms | non-2xx + errors |
|---|---|---|---|---|---|
${loadRow('all-in-one', 'off', results.off!)}
${loadRow('all-in-one', 'on (OTLP export)', results.on!)}
${loadRow('all-in-one', 'on, 1 in 10 traces recorded', results.sampled!)}

On/off throughput: **${ratio.toFixed(2)}×**, the median of the ${ROUNDS} rounds' ratios (the ratio of the
medians: ${ofMedians.toFixed(2)}×; target ≥ ${TARGET_RATIO}×). 1 in 10 recorded / off: **${sampledRatio.toFixed(2)}×**.`,
    );
    console.log(`tracing on/off PATCH throughput: ${ratio.toFixed(2)}x; 1 in 10 traces recorded: ${sampledRatio.toFixed(2)}x`);
  } finally {
    await collector.close();
  }
}

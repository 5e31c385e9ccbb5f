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

/**
 * `pnpm bench tracing-overhead`: two all-in-one processes side by side under the same PATCH load
 * as data-documents, measured interleaved: one with no OTEL_* variable, one exporting over
 * OTLP/HTTP to a local collector stub with the default configuration (every trace recorded).
 */
export async function tracingOverhead(): Promise<void> {
  const collector = await startCollectorStub();
  try {
    const results = await withPlatformProcess({}, async (off) =>
      withPlatformProcess({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url }, async (on) => compareLoads({ off: await patchLoad(off.url), on: await patchLoad(on.url) }, ROUNDS)),
    );
    const ratio = pairedRatio(results.on!.roundsPerSecond, results.off!.roundsPerSecond);
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
(${collector.exports()} export requests). Target: on ≥ ${TARGET_RATIO}× off.

| shape | tracing | req/s | p50 ms | p99 ms | non-2xx + errors |
|---|---|---|---|---|---|
${loadRow('all-in-one', 'off', results.off!)}
${loadRow('all-in-one', 'on (OTLP export)', results.on!)}

On/off throughput: **${ratio.toFixed(2)}×**, the median of the ${ROUNDS} rounds' ratios (the ratio of the
medians: ${ofMedians.toFixed(2)}×; target ≥ ${TARGET_RATIO}×).`,
    );
    console.log(`tracing on/off PATCH throughput: ${ratio.toFixed(2)}x`);
  } finally {
    await collector.close();
  }
}

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { patchLoad, PATCH_DOCUMENTS } from './data-documents';
import { compareLoads, pairedRatio, type LoadOptions } from '../load';
import { pooled, processNames, roundMeans } from '../pooled';
import { startPlatformProcess, type PlatformProcess } from '../processes';
import { loadRow, writeSection } from '../report';

/** The issue's bar: PATCH throughput with tracing on at least this share of off. */
const TARGET_RATIO = 0.9;
/** Rounds: the target is a ratio, taken round by round (pairedRatio). */
const ROUNDS = 5;
/**
 * All-in-one processes of each configuration. Processes of the same code can differ by 10% for
 * their whole lives (two untraced ones read 203 and 222 µs of CPU a PATCH side by side), so one
 * process against one compares two draws as much as two configurations (pooled.ts).
 */
const PROCESSES = 2;

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

/** The three configurations compared, by the environment each process gets. */
function configurations(collectorUrl: string): Record<'off' | 'on' | 'sampled', Record<string, string>> {
  return {
    off: {},
    on: { OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl },
    sampled: { OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, ...SAMPLED },
  };
}

/**
 * `pnpm bench tracing-overhead`: all-in-one processes side by side under the same PATCH load as
 * data-documents, `PROCESSES` of each configuration, every process loaded once a round: with no
 * OTEL_* variable; exporting over OTLP/HTTP to a local collector stub with the default
 * configuration (every trace recorded: the target's); and exporting 1 in 10 traces (what it costs
 * as operators run it; reported). Each configuration's figure a round is the mean of its processes.
 */
export async function tracingOverhead(): Promise<void> {
  const collector = await startCollectorStub();
  const processes: PlatformProcess[] = [];
  const kinds = configurations(collector.url);
  const names = { off: processNames('off', PROCESSES), on: processNames('on', PROCESSES), sampled: processNames('sampled', PROCESSES) };
  try {
    const targets: Record<string, LoadOptions> = {};
    for (let index = 0; index < PROCESSES; index += 1) {
      for (const kind of ['off', 'on', 'sampled'] as const) {
        const platform = await startPlatformProcess(kinds[kind]);
        processes.push(platform);
        targets[names[kind][index]!] = await patchLoad(platform.url);
      }
    }
    const results = await compareLoads(targets, ROUNDS);
    const off = roundMeans(results, names.off);
    const ratio = pairedRatio(roundMeans(results, names.on), off);
    const sampledRatio = pairedRatio(roundMeans(results, names.sampled), off);
    const [offRow, onRow, sampledRow] = [pooled(results, names.off), pooled(results, names.on), pooled(results, names.sampled)];
    const ofMedians = onRow.requestsPerSecond / offRow.requestsPerSecond;
    if (collector.exports() === 0) throw new Error('the traced processes exported no spans: the comparison would measure nothing');
    await writeSection(
      'tracing-overhead',
      `## Tracing overhead

Command: \`pnpm bench tracing-overhead\`. All-in-one, 32 connections, the PATCH load of
data-documents (${PATCH_DOCUMENTS.toLocaleString('en-US')} documents, each request a real write with history and an event that
audit, actions and the realtime notifier consume), ${PROCESSES} processes of each configuration, every process loaded once in
each of ${ROUNDS} rounds; a configuration's row is the mean of its processes. *off*: no \`OTEL_*\` variable (no tracer
provider). *on*: only \`OTEL_EXPORTER_OTLP_ENDPOINT\` set, to a local OTLP/HTTP stub: the default
configuration, every trace recorded (\`parentbased_always_on\`), its spans (the request, store
writes, outbox drain, publish, the three consumers) exported in protobuf batches
(${collector.exports()} export requests from the traced processes). Target: on ≥ ${TARGET_RATIO}× off.
*1 in 10*: the same with \`OTEL_TRACES_SAMPLER=parentbased_traceidratio\`,
\`OTEL_TRACES_SAMPLER_ARG=0.1\` (reported, no target).

| shape | tracing | req/s | p50 ms | p99 ms | non-2xx + errors |
|---|---|---|---|---|---|
${loadRow('all-in-one', `off (mean of ${PROCESSES} processes)`, offRow)}
${loadRow('all-in-one', `on, OTLP export (mean of ${PROCESSES})`, onRow)}
${loadRow('all-in-one', `on, 1 in 10 traces recorded (mean of ${PROCESSES})`, sampledRow)}

On/off throughput: **${ratio.toFixed(2)}×**, the median of the ${ROUNDS} rounds' ratios of the processes' means (the ratio of the
rows: ${ofMedians.toFixed(2)}×; target ≥ ${TARGET_RATIO}×). 1 in 10 recorded / off: **${sampledRatio.toFixed(2)}×**.
Each process's median req/s: ${Object.keys(targets).map((name) => `${name} ${Math.round(results[name]!.requestsPerSecond).toLocaleString('en-US')}`).join(', ')}.`,
    );
    console.log(`tracing on/off PATCH throughput: ${ratio.toFixed(2)}x; 1 in 10 traces recorded: ${sampledRatio.toFixed(2)}x`);
  } finally {
    await Promise.all(processes.map((platform) => platform.stop()));
    await collector.close();
  }
}

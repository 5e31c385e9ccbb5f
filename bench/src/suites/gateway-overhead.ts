import { compareLoads, pairedRatio, type LoadOptions, type LoadResult } from '../load';
import { pooled, processNames, roundMeans } from '../pooled';
import { startReferenceProxy } from '../processes';
import { loadRow, writeSection } from '../report';
import { withMicroservices, withPlatformProcess } from '../shapes';

/** Rounds of the microservice comparison: its target is a ratio, taken round by round (pairedRatio). */
const GATEWAY_ROUNDS = 5;
/**
 * Processes of the gateway and of the bare Fastify reference in the microservice comparison.
 * Processes of the same proxy started together (as the topology starts its replicas) can differ by
 * 10 to 20% for the whole of their lives (two bare proxies read 43.0 and 51.6 us of CPU a request,
 * BENCHMARKS.md), so one process against one may compare the luck of two draws; each side is the
 * mean of three.
 */
const PROXY_PROCESSES = 3;

const gatewayNames = processNames('gateway', PROXY_PROCESSES);
const bareFastifyNames = processNames('bareFastify', PROXY_PROCESSES);

/**
 * Gateway overhead (issue 2): a health route through the gateway vs the same route on the
 * service directly. Microservices: gateway `/api/health/data` (one proxy hop) vs the data
 * process's `/api/health`, and the gateway's processes against as many bare Fastify proxies in
 * front of the same data process. All-in-one: the all-in-one process's `/api/health/data` (session
 * hook, router, in-process answer) vs a data-only process's `/api/health`.
 */
export async function gatewayOverhead(): Promise<void> {
  const single = await withPlatformProcess({ SERVICES: 'all' }, (allInOne) =>
    withPlatformProcess({ SERVICES: 'data' }, (dataAlone) =>
      compareLoads({ gateway: { url: `${allInOne.url}/api/health/data` }, direct: { url: `${dataAlone.url}/api/health` } }),
    ),
  );
  const micro = await withMicroservices(
    {},
    async (topology) => {
      const dataUrl = topology.serviceUrls.get('data') as string;
      const started: Array<{ stop(): Promise<void> }> = [];
      try {
        const targets: Record<string, LoadOptions> = {};
        for (const [index, gatewayName] of gatewayNames.entries()) {
          // Each gateway process directly (the topology's load balancer in front of them stays idle), beside a bare proxy of its own.
          targets[gatewayName] = { url: `${topology.instanceUrls.get(`gateway-${index + 1}`)}/api/health/data` };
          const bareFastify = await startReferenceProxy('fastify-http-proxy', dataUrl);
          started.push(bareFastify);
          targets[bareFastifyNames[index]!] = { url: `${bareFastify.url}/api/health/data` };
        }
        const bareNode = await startReferenceProxy('node-undici-proxy', dataUrl);
        started.push(bareNode);
        targets.direct = { url: `${dataUrl}/api/health` };
        targets.bareNode = { url: `${bareNode.url}/api/health/data` };
        return await compareLoads(targets, GATEWAY_ROUNDS);
      } finally {
        await Promise.all(started.map((proxy) => proxy.stop()));
      }
    },
    { gateway: PROXY_PROCESSES },
  );

  const gateway = pooled(micro, gatewayNames);
  const bareFastify = pooled(micro, bareFastifyNames);
  const microRows: Record<string, LoadResult> = { gateway, bareFastify, direct: micro.direct!, bareNode: micro.bareNode! };
  const ratio = (results: Record<string, LoadResult>, proxy = 'gateway') => results[proxy]!.requestsPerSecond / results.direct!.requestsPerSecond;
  const addedP99 = (results: Record<string, LoadResult>, proxy = 'gateway') => results[proxy]!.p99Ms - results.direct!.p99Ms;
  const gatewayToReference = pairedRatio(roundMeans(micro, gatewayNames), roundMeans(micro, bareFastifyNames));
  const ofMedians = gateway.requestsPerSecond / bareFastify.requestsPerSecond;
  const perProcess = (names: string[]) => names.map((name) => Math.round(micro[name]!.requestsPerSecond).toLocaleString('en-US')).join(', ');
  await writeSection(
    'gateway-overhead',
    `## Gateway overhead (issue 2)

Command: \`pnpm bench gateway-overhead\`. 32 connections. "direct" is the same kind of route on a
service process without the gateway in front.

| shape | target | req/s | p50 ms | p99 ms | non-2xx + errors |
|---|---|---|---|---|---|
${loadRow('all-in-one', 'gateway /api/health/data', single.gateway!)}
${loadRow('all-in-one', 'direct data /api/health', single.direct!)}
${loadRow('microservices', `gateway /api/health/data (proxied; mean of ${PROXY_PROCESSES} processes)`, gateway)}
${loadRow('microservices', 'direct data /api/health', micro.direct!)}
${loadRow('reference', `bare Fastify + @fastify/http-proxy (proxied; mean of ${PROXY_PROCESSES} processes)`, bareFastify)}
${loadRow('reference', 'bare node:http + undici dispatch (proxied)', micro.bareNode!)}

| shape | throughput gateway / direct | target | added p99 | target |
|---|---|---|---|---|
| all-in-one | ${ratio(single).toFixed(2)}x | ≥ 0.95x | ${addedP99(single).toFixed(1)} ms | |
| microservices | ${ratio(microRows).toFixed(2)}x | see below | ${addedP99(microRows).toFixed(1)} ms | |
| reference: bare Fastify + @fastify/http-proxy | ${ratio(microRows, 'bareFastify').toFixed(2)}x | | ${addedP99(microRows, 'bareFastify').toFixed(1)} ms | |
| reference: bare node:http + undici | ${ratio(microRows, 'bareNode').toFixed(2)}x | | ${addedP99(microRows, 'bareNode').toFixed(1)} ms | |

| microservices | throughput gateway / bare Fastify + @fastify/http-proxy | target |
|---|---|---|
| gateway /api/health/data | ${gatewayToReference.toFixed(2)}x (median of ${GATEWAY_ROUNDS} rounds' ratios of the ${PROXY_PROCESSES} processes' means; ratio of the medians ${ofMedians.toFixed(2)}x) | ≥ 0.9x |

Each process's median req/s: gateway ${perProcess(gatewayNames)}; bare Fastify ${perProcess(bareFastifyNames)}.

The reference proxies run in the same microservice run, in front of the same data process,
and do nothing but forward (no logger, session, principal or hooks): they show the best the
stack (Fastify with @fastify/http-proxy) and Node itself can do here, the ceiling for the
gateway. A proxied request costs the proxy two HTTP parses and two serializations, more than the
health route costs the service, and all three processes (load generator, proxy, service) share
the two cores. The gateway's target is relative to the bare Fastify proxy measured in the same
run: at least 0.9x its throughput. The topology runs ${PROXY_PROCESSES} gateway processes (as
\`docker compose up --scale gateway=${PROXY_PROCESSES}\` would), each loaded directly, and as many bare Fastify
proxies; every round loads each process once, in turn, and the round's ratio is the gateways' mean
over the bare proxies' mean: processes of the same proxy started together can differ by 10 to 20%
for their whole lives, so one against one may compare two draws.`,
  );
  console.log(
    `gateway overhead: all-in-one ${ratio(single).toFixed(2)}x, microservices ${ratio(microRows).toFixed(2)}x (+${addedP99(microRows).toFixed(1)} ms p99), ${gatewayToReference.toFixed(2)}x the bare Fastify proxy`,
  );
}

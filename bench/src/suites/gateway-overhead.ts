import { compareLoads, pairedRatio, type LoadResult } from '../load';
import { startReferenceProxy } from '../processes';
import { loadRow, writeSection } from '../report';
import { withMicroservices, withPlatformProcess } from '../shapes';

/** Rounds of the microservice comparison: its target is a ratio, taken round by round (pairedRatio). */
const GATEWAY_ROUNDS = 5;

/**
 * Gateway overhead (issue 2): a health route through the gateway vs the same route on the
 * service directly. Microservices: gateway `/api/health/data` (one proxy hop) vs the data
 * process's `/api/health`. All-in-one: the all-in-one process's `/api/health/data` (session hook,
 * router, in-process answer) vs a data-only process's `/api/health`.
 */
export async function gatewayOverhead(): Promise<void> {
  const single = await withPlatformProcess({ SERVICES: 'all' }, (allInOne) =>
    withPlatformProcess({ SERVICES: 'data' }, (dataAlone) =>
      compareLoads({ gateway: { url: `${allInOne.url}/api/health/data` }, direct: { url: `${dataAlone.url}/api/health` } }),
    ),
  );
  const micro = await withMicroservices({}, async (topology) => {
    const dataUrl = topology.serviceUrls.get('data') as string;
    const started: Array<{ stop(): Promise<void> }> = [];
    try {
      const bareFastify = await startReferenceProxy('fastify-http-proxy', dataUrl);
      started.push(bareFastify);
      const bareNode = await startReferenceProxy('node-undici-proxy', dataUrl);
      started.push(bareNode);
      return await compareLoads(
        {
          gateway: { url: `${topology.gatewayUrl}/api/health/data` },
          direct: { url: `${dataUrl}/api/health` },
          bareFastify: { url: `${bareFastify.url}/api/health/data` },
          bareNode: { url: `${bareNode.url}/api/health/data` },
        },
        GATEWAY_ROUNDS,
      );
    } finally {
      await Promise.all(started.map((proxy) => proxy.stop()));
    }
  });

  const ratio = (results: Record<string, LoadResult>, proxy = 'gateway') => results[proxy]!.requestsPerSecond / results.direct!.requestsPerSecond;
  const addedP99 = (results: Record<string, LoadResult>, proxy = 'gateway') => results[proxy]!.p99Ms - results.direct!.p99Ms;
  const gatewayToReference = pairedRatio(micro.gateway!.roundsPerSecond, micro.bareFastify!.roundsPerSecond);
  const ofMedians = micro.gateway!.requestsPerSecond / micro.bareFastify!.requestsPerSecond;
  await writeSection(
    'gateway-overhead',
    `## Gateway overhead (issue 2)

Command: \`pnpm bench gateway-overhead\`. 32 connections. "direct" is the same kind of route on a
service process without the gateway in front.

| shape | target | req/s | p50 ms | p99 ms | non-2xx + errors |
|---|---|---|---|---|---|
${loadRow('all-in-one', 'gateway /api/health/data', single.gateway!)}
${loadRow('all-in-one', 'direct data /api/health', single.direct!)}
${loadRow('microservices', 'gateway /api/health/data (proxied)', micro.gateway!)}
${loadRow('microservices', 'direct data /api/health', micro.direct!)}
${loadRow('reference', 'bare Fastify + @fastify/http-proxy (proxied)', micro.bareFastify!)}
${loadRow('reference', 'bare node:http + undici dispatch (proxied)', micro.bareNode!)}

| shape | throughput gateway / direct | target | added p99 | target |
|---|---|---|---|---|
| all-in-one | ${ratio(single).toFixed(2)}x | ≥ 0.95x | ${addedP99(single).toFixed(1)} ms | |
| microservices | ${ratio(micro).toFixed(2)}x | see below | ${addedP99(micro).toFixed(1)} ms | |
| reference: bare Fastify + @fastify/http-proxy | ${ratio(micro, 'bareFastify').toFixed(2)}x | | ${addedP99(micro, 'bareFastify').toFixed(1)} ms | |
| reference: bare node:http + undici | ${ratio(micro, 'bareNode').toFixed(2)}x | | ${addedP99(micro, 'bareNode').toFixed(1)} ms | |

| microservices | throughput gateway / bare Fastify + @fastify/http-proxy | target |
|---|---|---|
| gateway /api/health/data | ${gatewayToReference.toFixed(2)}x (median of ${GATEWAY_ROUNDS} rounds' ratios; ratio of the medians ${ofMedians.toFixed(2)}x) | ≥ 0.9x |

The two reference proxies run in the same microservice run, in front of the same data process,
and do nothing but forward (no logger, session, principal or hooks): they show the best the
stack (Fastify with @fastify/http-proxy) and Node itself can do here, the ceiling for the
gateway. A proxied request costs the proxy two HTTP parses and two serializations, more than the
health route costs the service, and all three processes (load generator, proxy, service) share
the two cores. The gateway's target is relative to the bare Fastify proxy measured in the same
run: at least 0.9x its throughput.`,
  );
  console.log(
    `gateway overhead: all-in-one ${ratio(single).toFixed(2)}x, microservices ${ratio(micro).toFixed(2)}x (+${addedP99(micro).toFixed(1)} ms p99), ${gatewayToReference.toFixed(2)}x the bare Fastify proxy`,
  );
}

import { signedInClient, type ApiClient } from '../api-client';
import { compareLoads, type LoadResult } from '../load';
import { markDomainVerified } from '../mongo-fixtures';
import { loadRow, writeSection } from '../report';
import { withMicroservices, withPlatformProcess } from '../shapes';

const HOSTNAME = 'shop.bench.example.com';

/** Makes the new domain resolve; HOSTNAME has no DNS record, so each shape does it its own way. */
type VerifyDomain = (client: ApiClient, projectId: string, domainId: string) => Promise<void>;

/** All-in-one runs in development with PUBLISHING_DOMAIN_VERIFICATION=off: the verify route checks nothing. */
const verifyUnchecked: VerifyDomain = async (client, projectId, domainId) => {
  await client.call('POST', `/api/projects/${projectId}/domains/${domainId}/verify`);
};

/** Publishes one application of 10 routes behind HOSTNAME, then loads its resolution and `/api/health`, interleaved. */
async function measure(baseUrl: string, verify: VerifyDomain): Promise<Record<string, LoadResult>> {
  const client = await signedInClient(baseUrl);
  const project = await client.call<{ id: string }>('POST', '/api/projects', { name: 'Bench publishing' });
  const application = await client.call<{ id: string }>('POST', `/api/projects/${project.id}/applications`, {
    title: { en: 'Shop' },
    routes: Array.from({ length: 10 }, (_, index) => ({ path: `/page-${index}`, widget: 'text', props: { text: 'Benchmark page' } })),
    serverConfiguration: { apiKey: 'not served' },
  });
  await client.call('POST', `/api/projects/${project.id}/applications/${application.id}/publish`);
  const domain = await client.call<{ id: string }>('POST', `/api/projects/${project.id}/domains`, { hostname: HOSTNAME, targetType: 'application', targetId: application.id });
  await verify(client, project.id, domain.id);
  const check = await fetch(`${baseUrl}/api/public/domains/${HOSTNAME}`);
  if (check.status !== 200) throw new Error(`resolution answered ${check.status}`);
  return compareLoads({
    health: { url: `${baseUrl}/api/health` },
    resolve: { url: `${baseUrl}/api/public/domains/${HOSTNAME}` },
  });
}

/**
 * Public domain resolution (issue 6): anonymous `GET /api/public/domains/{hostname}` for a
 * published application, answered from publishing's resolution cache, compared with
 * `GET /api/health` in the same run, in each shape.
 */
export async function publishingResolution(): Promise<void> {
  const single = await withPlatformProcess({ SERVICES: 'all', PUBLISHING_DOMAIN_VERIFICATION: 'off' }, (platform) => measure(platform.url, verifyUnchecked));
  const micro = await withMicroservices({}, ({ gatewayUrl, backendUrls, database }) => measure(gatewayUrl, () => markDomainVerified(backendUrls.mongo, database, HOSTNAME)));
  const ratio = (results: Record<string, LoadResult>) => results.resolve!.requestsPerSecond / results.health!.requestsPerSecond;
  await writeSection(
    'publishing-resolution',
    `## Public domain resolution (issue 6)

Command: \`pnpm bench publishing-resolution\`. 32 connections, anonymous callers (no session), one
published application of 10 routes behind one domain. All-in-one: one process on the embedded
store. Microservices: the gateway proxies to the publishing process (its resolution cache, 1 s
TTL, in front of the MongoDB stand-in named below), each its own process, with NATS and Redis,
all sharing the same 2 cores with the load generator. \`/api/health\` is answered by the gateway
itself, the baseline of each shape.

| shape | target | req/s | p50 ms | p99 ms | non-2xx + errors |
|---|---|---|---|---|---|
${loadRow('all-in-one', 'GET /api/health', single.health!)}
${loadRow('all-in-one', 'GET /api/public/domains/{hostname}', single.resolve!)}
${loadRow('microservices', 'GET /api/health', micro.health!)}
${loadRow('microservices', 'GET /api/public/domains/{hostname}', micro.resolve!)}

| shape | throughput resolution ÷ /api/health | target |
|---|---|---|
| all-in-one | ${ratio(single).toFixed(2)}x | ≥ 0.8x |
| microservices | ${ratio(micro).toFixed(2)}x | ≥ 0.8x |`,
  );
  console.log(`publishing resolution: ${ratio(single).toFixed(2)}x of /api/health all-in-one, ${ratio(micro).toFixed(2)}x microservices`);
}

import { signedInClient } from '../api-client';
import { compareLoads, type LoadResult } from '../load';
import { loadRow, writeSection } from '../report';
import { withBackends, withMicroservices, withPlatformProcess } from '../shapes';

/** `GET /api/health` and `GET /api/me` as a fresh user, interleaved, against one shape's front door. */
async function measure(baseUrl: string): Promise<Record<string, LoadResult>> {
  const { token } = await signedInClient(baseUrl);
  return compareLoads({
    health: { url: `${baseUrl}/api/health` },
    me: { url: `${baseUrl}/api/me`, headers: { authorization: `Bearer ${token}` } },
  });
}

/**
 * Authenticated `GET /api/me` (issue 3): the gateway loads the session from Redis on every
 * request, then identity reads the user; compared with `GET /api/health` in the same run, in each
 * shape. The all-in-one process gets Redis for its sessions (REDIS_URL), else it would keep them
 * in memory and the figure would not include the session read.
 */
export async function identityMe(): Promise<void> {
  const single = await withBackends(({ redis }) => withPlatformProcess({ SERVICES: 'all', REDIS_URL: redis }, (platform) => measure(platform.url)));
  const micro = await withMicroservices({}, ({ gatewayUrl }) => measure(gatewayUrl));
  const ratio = (results: Record<string, LoadResult>) => results.me!.requestsPerSecond / results.health!.requestsPerSecond;
  await writeSection(
    'identity-me',
    `## Authenticated GET /api/me (issue 3)

Command: \`pnpm bench identity-me\`. 32 connections, bearer token, sessions in Redis in both
shapes, so every request reads its session from Redis. All-in-one: one process on the embedded
store with \`REDIS_URL\` set. Microservices: the gateway (session read) proxies to the identity
process (user read from the MongoDB stand-in named below), each its own process, with NATS and
Redis, all sharing the same 2 cores with the load generator. \`/api/health\` is answered by the
gateway itself without a session, the baseline of each shape.

| shape | target | req/s | p50 ms | p99 ms | non-2xx + errors |
|---|---|---|---|---|---|
${loadRow('all-in-one', 'GET /api/health', single.health!)}
${loadRow('all-in-one', 'GET /api/me (signed in)', single.me!)}
${loadRow('microservices', 'GET /api/health', micro.health!)}
${loadRow('microservices', 'GET /api/me (signed in)', micro.me!)}

| shape | throughput /api/me ÷ /api/health | target |
|---|---|---|
| all-in-one | ${ratio(single).toFixed(2)}x | ≥ 0.6x |
| microservices | ${ratio(micro).toFixed(2)}x | ≥ 0.6x |`,
  );
  console.log(`identity /api/me: ${ratio(single).toFixed(2)}x of /api/health all-in-one, ${ratio(micro).toFixed(2)}x microservices`);
}

import { signedInClient } from '../api-client';
import { compareLoads, pairedRatio, type LoadOptions, type LoadResult } from '../load';
import { pooled, processNames, roundMeans } from '../pooled';
import { startPlatformProcess, type PlatformProcess } from '../processes';
import { loadRow, writeSection } from '../report';
import { withBackends, withMicroservices } from '../shapes';

/** Rounds of the all-in-one comparison: its target is a ratio, taken round by round (pairedRatio). */
const ROUNDS = 5;
/** All-in-one processes, each loaded on both routes: one process against itself may measure the luck of its draw (pooled.ts). */
const PROCESSES = 3;
const healthNames = processNames('health', PROCESSES);
const meNames = processNames('me', PROCESSES);

/** The two routes' targets on one front door: `/api/health`, and `/api/me` as a fresh user. */
async function routeTargets(baseUrl: string): Promise<{ health: LoadOptions; me: LoadOptions }> {
  const { token } = await signedInClient(baseUrl);
  return { health: { url: `${baseUrl}/api/health` }, me: { url: `${baseUrl}/api/me`, headers: { authorization: `Bearer ${token}` } } };
}

/** `GET /api/health` and `GET /api/me`, interleaved, against one shape's front door. */
async function measure(baseUrl: string): Promise<Record<string, LoadResult>> {
  const { health, me } = await routeTargets(baseUrl);
  return compareLoads({ health, me });
}

/** Both routes on `PROCESSES` all-in-one processes sharing one Redis, every process loaded in every round. */
async function measureAllInOne(redis: string): Promise<{ health: LoadResult; me: LoadResult; ratio: number }> {
  const processes: PlatformProcess[] = [];
  try {
    const targets: Record<string, LoadOptions> = {};
    for (let index = 0; index < PROCESSES; index += 1) {
      const platform = await startPlatformProcess({ SERVICES: 'all', REDIS_URL: redis });
      processes.push(platform);
      const { health, me } = await routeTargets(platform.url);
      targets[healthNames[index]!] = health;
      targets[meNames[index]!] = me;
    }
    const results = await compareLoads(targets, ROUNDS);
    return { health: pooled(results, healthNames), me: pooled(results, meNames), ratio: pairedRatio(roundMeans(results, meNames), roundMeans(results, healthNames)) };
  } finally {
    await Promise.all(processes.map((platform) => platform.stop()));
  }
}

/**
 * Authenticated `GET /api/me` (issue 3): the gateway loads the session from Redis on every
 * request, then identity reads the user; compared with `GET /api/health` in the same run, in each
 * shape. The all-in-one processes get Redis for their sessions (REDIS_URL), else they would keep
 * them in memory and the figure would not include the session read.
 */
export async function identityMe(): Promise<void> {
  const single = await withBackends(({ redis }) => measureAllInOne(redis));
  const micro = await withMicroservices({}, ({ gatewayUrl }) => measure(gatewayUrl));
  const microRatio = micro.me!.requestsPerSecond / micro.health!.requestsPerSecond;
  await writeSection(
    'identity-me',
    `## Authenticated GET /api/me (issue 3)

Command: \`pnpm bench identity-me\`. 32 connections, bearer token, sessions in Redis in both
shapes, so every request reads its session from Redis. All-in-one: ${PROCESSES} processes on the
embedded store with \`REDIS_URL\` set (one Redis), each loaded on both routes in every round. Microservices: the gateway (session read) proxies to the identity
process (user read from the MongoDB stand-in named below), each its own process, with NATS and
Redis, all sharing the same 2 cores with the load generator. \`/api/health\` is answered by the
gateway itself without a session, the baseline of each shape.

| shape | target | req/s | p50 ms | p99 ms | non-2xx + errors |
|---|---|---|---|---|---|
${loadRow('all-in-one', `GET /api/health (mean of ${PROCESSES} processes)`, single.health)}
${loadRow('all-in-one', `GET /api/me (signed in; mean of ${PROCESSES} processes)`, single.me)}
${loadRow('microservices', 'GET /api/health', micro.health!)}
${loadRow('microservices', 'GET /api/me (signed in)', micro.me!)}

| shape | throughput /api/me ÷ /api/health | target |
|---|---|---|
| all-in-one | ${single.ratio.toFixed(2)}x (median of ${ROUNDS} rounds' ratios of the ${PROCESSES} processes' means) | ≥ 0.6x |
| microservices | ${microRatio.toFixed(2)}x | ≥ 0.6x |`,
  );
  console.log(`identity /api/me: ${single.ratio.toFixed(2)}x of /api/health all-in-one, ${microRatio.toFixed(2)}x microservices`);
}

import { startBackendServers } from '@platform/testkit/servers';
import { signedInClient } from '../api-client';
import { compareLoads, type LoadResult } from '../load';
import { startPlatformProcess } from '../processes';
import { formatRow, writeSection } from '../report';

function row(target: string, result: LoadResult): string {
  return formatRow([target, Math.round(result.requestsPerSecond), result.p50Ms, result.p99Ms, result.non2xx + result.errors]);
}

/**
 * Authenticated `GET /api/me` (issue 3): the gateway loads the session from Redis on every
 * request, then identity reads the user; compared with `GET /api/health` in the same run.
 */
export async function identityMe(): Promise<void> {
  const backends = await startBackendServers();
  let results: Record<string, LoadResult>;
  try {
    const platform = await startPlatformProcess({ SERVICES: 'all', REDIS_URL: backends.urls.redis });
    try {
      const { token } = await signedInClient(platform.url);
      results = await compareLoads({
        health: { url: `${platform.url}/api/health` },
        me: { url: `${platform.url}/api/me`, headers: { authorization: `Bearer ${token}` } },
      });
    } finally {
      await platform.stop();
    }
  } finally {
    await backends.stop();
  }
  const ratio = results.me!.requestsPerSecond / results.health!.requestsPerSecond;
  await writeSection(
    'identity-me',
    `## Authenticated GET /api/me (issue 3)

Command: \`pnpm bench identity-me\`. All-in-one process (embedded store) with sessions in Redis
(\`REDIS_URL\`), so every request reads its session from Redis; bearer token.

| target | req/s | p50 ms | p99 ms | non-2xx + errors |
|---|---|---|---|---|
${row('GET /api/health', results.health!)}
${row('GET /api/me (signed in)', results.me!)}

Throughput /api/me ÷ /api/health: **${ratio.toFixed(2)}x** (target ≥ 0.6x).`,
  );
  console.log(`identity /api/me: ${ratio.toFixed(2)}x of /api/health`);
}

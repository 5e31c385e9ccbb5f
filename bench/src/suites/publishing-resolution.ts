import { signedInClient } from '../api-client';
import { compareLoads, type LoadResult } from '../load';
import { startPlatformProcess } from '../processes';
import { formatRow, writeSection } from '../report';

const HOSTNAME = 'shop.bench.example.com';

function row(target: string, result: LoadResult): string {
  return formatRow([target, Math.round(result.requestsPerSecond), result.p50Ms, result.p99Ms, result.non2xx + result.errors]);
}

/**
 * Public domain resolution (issue 6): anonymous `GET /api/public/domains/{hostname}` for a
 * published application, answered from publishing's resolution cache, compared with
 * `GET /api/health` in the same run.
 */
export async function publishingResolution(): Promise<void> {
  let results: Record<string, LoadResult>;
  const platform = await startPlatformProcess({ SERVICES: 'all' });
  try {
    const client = await signedInClient(platform.url);
    const project = await client.call<{ id: string }>('POST', '/api/projects', { name: 'Bench publishing' });
    const application = await client.call<{ id: string }>('POST', `/api/projects/${project.id}/applications`, {
      title: { en: 'Shop' },
      routes: Array.from({ length: 10 }, (_, index) => ({ path: `/page-${index}`, widget: 'text', props: { text: 'Benchmark page' } })),
      serverConfiguration: { apiKey: 'not served' },
    });
    await client.call('POST', `/api/projects/${project.id}/applications/${application.id}/publish`);
    await client.call('POST', `/api/projects/${project.id}/domains`, { hostname: HOSTNAME, targetType: 'application', targetId: application.id });
    const check = await fetch(`${platform.url}/api/public/domains/${HOSTNAME}`);
    if (check.status !== 200) throw new Error(`resolution answered ${check.status}`);
    results = await compareLoads({
      health: { url: `${platform.url}/api/health` },
      resolve: { url: `${platform.url}/api/public/domains/${HOSTNAME}` },
    });
  } finally {
    await platform.stop();
  }
  const ratio = results.resolve!.requestsPerSecond / results.health!.requestsPerSecond;
  await writeSection(
    'publishing-resolution',
    `## Public domain resolution (issue 6)

Command: \`pnpm bench publishing-resolution\`. All-in-one process (embedded store), anonymous
callers (no session), one published application of 10 routes behind one domain.

| target | req/s | p50 ms | p99 ms | non-2xx + errors |
|---|---|---|---|---|
${row('GET /api/health', results.health!)}
${row('GET /api/public/domains/{hostname}', results.resolve!)}

Throughput resolution ÷ /api/health: **${ratio.toFixed(2)}x** (target ≥ 0.8x).`,
  );
  console.log(`publishing resolution: ${ratio.toFixed(2)}x of /api/health`);
}

import { apiRequest, signedInClient, type ApiClient } from '../api-client';
import { formatRow, writeSection } from '../report';
import { withMicroservices, withPlatformProcess } from '../shapes';
import { median, percentile } from '../stats';

/** Removals per shape; ACCESS_BENCH_ROUNDS overrides (a short check of the suite). */
const ROUNDS = Number(process.env.ACCESS_BENCH_ROUNDS ?? 30);
/** Requests the removed member keeps in flight, each alternating between the data and audit services. */
const POLLERS = 4;
/** How long the removed member keeps asking after the removal's answer. */
const WATCH_MS = 600;

interface Round {
  /** Requests started after the removal's answer that still succeeded. */
  staleSuccesses: number;
  /** From the removal's answer to the start of the last such request (0 when none). */
  lagMs: number;
  requestsAfter: number;
}

/** The answer's status; 0 when the connection failed (a kept-alive socket the server had just closed), which is no success. */
async function status(baseUrl: string, path: string, token: string): Promise<number> {
  try {
    const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

/**
 * One removal: the member is invited and accepts, reads through the data and audit services (so
 * both have its standing cached), then keeps reading while the owner removes it.
 */
async function oneRound(baseUrl: string, owner: ApiClient, member: { token: string; userId: string }, projectId: string, documentPath: string): Promise<Round> {
  const invitation = await owner.call<{ id: string }>('POST', `/api/projects/${projectId}/members`, { userId: member.userId, permissions: [] });
  await apiRequest(baseUrl, 'POST', `/api/me/invitations/${invitation.id}/accept`, member.token);
  const paths = [documentPath, `/api/projects/${projectId}/audit-trail?limit=1`];
  for (const path of paths) if ((await status(baseUrl, path, member.token)) !== 200) throw new Error(`member could not read ${path} before its removal`);

  let removedAt = Number.POSITIVE_INFINITY;
  let watching = true;
  const after: Array<{ started: number; ok: boolean }> = [];
  const poll = async (offset: number) => {
    for (let n = offset; watching; n += 1) {
      const started = performance.now();
      const ok = (await status(baseUrl, paths[n % paths.length] as string, member.token)) === 200;
      if (started > removedAt) after.push({ started, ok });
    }
  };
  const pollers = Array.from({ length: POLLERS }, (_, offset) => poll(offset));
  const removal = await fetch(`${baseUrl}/api/projects/${projectId}/members/${member.userId}`, { method: 'DELETE', headers: { authorization: `Bearer ${owner.token}` } });
  removedAt = performance.now();
  if (removal.status !== 204) throw new Error(`removing the member answered ${removal.status}`);
  await new Promise((resolve) => setTimeout(resolve, WATCH_MS));
  watching = false;
  await Promise.all(pollers);
  const stale = after.filter((request) => request.ok);
  return { staleSuccesses: stale.length, lagMs: stale.length ? Math.max(...stale.map((request) => request.started - removedAt)) : 0, requestsAfter: after.length };
}

async function measure(baseUrl: string): Promise<Round[]> {
  const owner = await signedInClient(baseUrl);
  const memberClient = await signedInClient(baseUrl);
  const me = await memberClient.call<{ id: string }>('GET', '/api/me');
  const { id: projectId } = await owner.call<{ id: string }>('POST', '/api/projects', { name: 'revocation bench' });
  const { id: typeId } = await owner.call<{ id: string }>('POST', `/api/projects/${projectId}/types`, { name: 'Notes' });
  const { id: documentId } = await owner.call<{ id: string }>('POST', `/api/projects/${projectId}/types/${typeId}/data`, { title: 'read by the member' });
  const rounds: Round[] = [];
  for (let round = 0; round < ROUNDS; round += 1) rounds.push(await oneRound(baseUrl, owner, { token: memberClient.token, userId: me.id }, projectId, `/api/projects/${projectId}/types/${typeId}/data/${documentId}`));
  return rounds;
}

function row(shape: string, rounds: Round[], target: string): string {
  const lags = rounds.map((round) => round.lagMs);
  const stale = rounds.reduce((sum, round) => sum + round.staleSuccesses, 0);
  const requests = rounds.reduce((sum, round) => sum + round.requestsAfter, 0);
  return formatRow([shape, rounds.length, requests, stale, Math.round(percentile(lags, 50)), Math.round(percentile(lags, 99)), Math.round(Math.max(...lags)), target]);
}

/**
 * Issue 24: how long a removed member keeps getting answers. The cache expiry is raised to a
 * minute in both shapes, so only the announced change can end access sooner.
 */
export async function accessRevocation(): Promise<void> {
  const environment = { PROJECT_ACCESS_CACHE_MS: '60000' };
  const single = await withPlatformProcess({ SERVICES: 'all', ...environment }, (platform) => measure(platform.url));
  const micro = await withMicroservices(environment, ({ gatewayUrl }) => measure(gatewayUrl));
  await writeSection(
    'access-revocation',
    `## Access revocation (issue 24)

Command: \`pnpm bench access-revocation\`. Each round invites a member, lets it read a document
(data service) and the audit trail (audit service) so both cache its standing, then keeps
${POLLERS} requests in flight, alternating between the two, while the owner removes it, and for
${WATCH_MS} ms after the removal's answer. A stale success is a request that started after that
answer and still got 200; the lag is the time from the answer to the start of the last stale
success (0 when there is none). Cached standing expires after \`PROJECT_ACCESS_CACHE_MS\`, set to
60,000 ms here, so nothing but the announced change can end access sooner. All-in-one: one
process (every service forgets before identity answers). Microservices: every service its own
process; identity broadcasts the change over NATS and every process forgets on receipt, on the
MongoDB stand-in named below, all sharing the machine's 2 cores with the benchmark.

| shape | removals | requests after the answer | stale successes | lag p50 ms | lag p99 ms | lag max ms | target |
|---|---|---|---|---|---|---|---|
${row('all-in-one', single, '0 stale successes')}
${row('microservices', micro, 'lag p99 < 100 ms')}`,
  );
  console.log(`access-revocation: lag p99 ${Math.round(percentile(micro.map((round) => round.lagMs), 99))} ms microservices (median ${Math.round(median(micro.map((round) => round.lagMs)))} ms), ${single.reduce((sum, round) => sum + round.staleSuccesses, 0)} stale successes all-in-one`);
}

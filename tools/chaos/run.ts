import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Api } from './api';
import { startBackends } from './backends';
import { faultsFor } from './faults';
import { LoadGenerator } from './load';
import { formatReport } from './report';
import { seed } from './seed';
import { readDocuments } from './server-state';
import { startServiceProcesses } from './services';
import { startSyncClients } from './sync-clients';
import { Traffic, type Phase } from './traffic';
import { verify } from './verify';

/**
 * `pnpm test:chaos`: the microservice shape of docker-compose.yml as local processes on a local
 * MongoDB-compatible server, NATS and Redis. While writers create and patch documents through the
 * gateway and two sync clients follow along, it kills (SIGKILL) and restarts NATS, Redis, the
 * MongoDB-compatible server and the audit, actions and data services, one at a time, letting the
 * system settle in between. Then it checks that every acknowledged write is stored, every change
 * is in the audit trail exactly once, every created document has exactly one action run, the sync
 * clients hold what the server holds, and no request got a 5xx other than 503 (nor a 503 before
 * the first fault or after the last). Prints a table per fault; exits non-zero on any violation.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const logDir = join(root, '.cache/chaos');

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const settings = {
  writers: setting('CHAOS_WRITERS', 3),
  pauseMs: setting('CHAOS_PAUSE_MS', 800),
  baselineMs: setting('CHAOS_BASELINE_MS', 6_000),
  downMs: setting('CHAOS_DOWN_MS', 6_000),
  settleMs: setting('CHAOS_SETTLE_MS', 4_000),
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the gateway reports every service and backend up again. */
async function waitUntilHealthy(gatewayUrl: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${gatewayUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      last = await response.text();
      if (response.ok && (JSON.parse(last) as { status: string }).status === 'ok') return;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(250);
  }
  throw new Error(`the platform is not healthy ${timeoutMs} ms after the restart: ${last}`);
}

async function main(): Promise<number> {
  const started = Date.now();
  await rm(logDir, { recursive: true, force: true });
  await mkdir(logDir, { recursive: true });
  const backends = await startBackends();
  const services = await startServiceProcesses({
    composeFile: join(root, 'docker-compose.yml'),
    repositoryRoot: root,
    backendUrls: { mongo: backends.mongo.url, nats: backends.nats.url, redis: backends.redis.url },
    logDir,
    extraEnvironment: { LOG_LEVEL: 'warn', MONGO_DATABASE: `chaos_${randomBytes(4).toString('hex')}` },
  }).catch(async (error: unknown) => {
    await backends.dispose();
    throw error;
  });
  console.log(`microservices up at ${services.gatewayUrl} in ${Math.round((Date.now() - started) / 1000)} s (logs: ${logDir})`);

  const traffic = new Traffic('baseline (no fault)');
  const violations: string[] = [];
  const recoverySeconds = new Map<Phase, number>();
  try {
    await waitUntilHealthy(services.gatewayUrl);
    const fixture = await seed(new Api(services.gatewayUrl, traffic));
    const clients = await startSyncClients(fixture, traffic, { insertEveryMs: 3_000 });
    const load = new LoadGenerator(fixture.owner, fixture.dataPath, traffic, { writers: settings.writers, pauseMs: settings.pauseMs, patchShare: 0.35 });
    load.start();
    await sleep(settings.baselineMs);

    for (const fault of faultsFor(backends, services)) {
      traffic.begin(fault.name);
      const killedAt = Date.now();
      await fault.kill();
      console.log(`killed ${fault.name}`);
      await sleep(settings.downMs);
      await fault.restart();
      await waitUntilHealthy(services.gatewayUrl);
      recoverySeconds.set(traffic.current, (Date.now() - killedAt) / 1000);
      console.log(`restarted ${fault.name}; healthy ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`);
      await sleep(settings.settleMs);
    }

    traffic.begin('checks (load stopped)');
    await load.stop();
    clients.stopWriting();
    violations.push(...load.refusals.map((refusal) => `unexpected answer to a write: ${refusal}`));
    const unresolved = [...load.documents.values()].filter((document) => document.unresolved);
    violations.push(...unresolved.map((document) => `a write to ${document.id} still failed a minute after the load stopped`));
    // The writing client's queue reaches the server before the server's state is read.
    const unsynced = (await clients.flush(60_000)).map((problem) => `sync client cannot push: ${problem}`);
    const documents = await readDocuments(fixture);
    const findings = await verify(fixture, load, documents, traffic, 120_000);
    violations.push(...unsynced, ...findings.violations);
    violations.push(...(await clients.differences(documents, 60_000)).map((difference) => `sync client does not converge: ${difference}`));
    await clients.close();
    traffic.end();

    for (const phase of traffic.phases) {
      violations.push(...[...phase.serverErrors].map(([route, count]) => `${phase.name}: 5xx other than 503: ${route} (${count}×)`));
      const noAnswer = (phase.outcomes.get('timeout') ?? 0) + (phase.outcomes.get('network') ?? 0);
      if (noAnswer) violations.push(`${phase.name}: ${noAnswer} requests got no answer from the gateway (timeout or broken connection)`);
    }
    for (const calm of [traffic.phases[0]!, traffic.current]) {
      if (calm.outcomes.get(503)) violations.push(`${calm.name}: ${calm.outcomes.get(503)} requests answered 503 with every backend up`);
    }

    console.log('');
    console.log(formatReport(traffic, load.acknowledged, findings.damage, recoverySeconds));
    console.log('');
    for (const note of findings.notes) console.log(note);
    console.log(`writes acknowledged ${load.acknowledged.length}, unresolved ${unresolved.length}; ${Math.round((Date.now() - started) / 1000)} s in all`);
  } finally {
    await services.stopAll();
    await backends.dispose();
  }

  if (violations.length) {
    console.log(`\n${violations.length} violation(s):`);
    for (const violation of violations.slice(0, 50)) console.log(`  - ${violation}`);
    if (violations.length > 50) console.log(`  ... and ${violations.length - 50} more`);
    return 1;
  }
  console.log('\nno violations');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasExecutableSync, mongoCompatBinaryPath, startBackendServers, type BackendServers } from '@platform/testkit/servers';
import { prefixedLineWriter } from './compose/log-lines';
import { startLocalTopology, type LocalTopology } from './compose/local-topology';
import { missingPrograms } from './compose/missing-programs';
import { promoteOwnerCommand } from './compose/owner-command';
import { prometheusTargetsFile } from './compose/prometheus-targets';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const serviceNames = ['mongo', 'nats', 'redis', 'gateway', 'identity', 'data', 'audit', 'publishing', 'actions', 'visitors', 'start'];

/**
 * `pnpm start:services`: the microservice shape of docker-compose.yml as local processes, for a
 * developer without Docker. MONGO_URL, NATS_URL and REDIS_URL point at existing backends; without
 * them it starts local ones (FerretDB built from tools/mongo-compat, nats-server, redis-server)
 * whose data stays under DATA_DIR/services. Settings come from the environment or `.env`, as
 * with compose. Ctrl-C, or a failed start, stops everything it started.
 */
/** The development webhook secret kept in `file`, generated on the first run; its path is said, never the secret. */
async function keptWebhookSecret(file: string, say: (line: string) => void): Promise<string> {
  const { keptSecret } = await import('./principal-secret');
  const { secret, path, generated } = await keptSecret(dirname(file), basename(file), 'ACTIONS_WEBHOOK_SECRET');
  say(`ACTIONS_WEBHOOK_SECRET is not set: ${generated ? 'generated' : 'using'} a webhook secret for development kept in ${path} (set it to choose one)`);
  return secret;
}

/** A start-up failure whose message says all (no stack). */
class StartError extends Error {
  override name = 'StartError';
}

/**
 * Fails when something already listens on the gateway's port: the gateway would exit at once,
 * and the health check, answered by that other server, would have counted it up (and the
 * supervisor restarted it for ever). Checked before anything starts, with the gateway's wording.
 */
async function ensurePortFree(port: number): Promise<void> {
  if (port === 0) return;
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? new StartError(`port ${port} is in use: set PORT (PORT=0 picks a free one)`) : error));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve()));
  });
}

/**
 * Holds DATA_DIR/services for this run: a second run on the same DATA_DIR would start a second
 * nats-server, redis-server and MongoDB-compatible server on the same files, which corrupts them.
 * The lock is the embedded store's (pid, taken over when its holder died).
 */
async function lockBackendDataDir(directory: string, dataDir: string): Promise<() => Promise<void>> {
  const { lockDirectory } = await import('@platform/storage/log-files');
  await mkdir(directory, { recursive: true });
  try {
    return await lockDirectory(directory);
  } catch (error) {
    if ((error as { code?: string }).code !== 'DATA_DIRECTORY_IN_USE') throw error;
    const holder = (error as { holderPid?: number }).holderPid;
    throw new StartError(`DATA_DIR ${dataDir} is in use by another pnpm start:services (process ${holder}): stop that one, or set another DATA_DIR`);
  }
}

async function main(): Promise<void> {
  const envFile = resolve(repositoryRoot, '.env');
  // Like compose: the shell's variables win over the file's.
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  const write = prefixedLineWriter({ names: serviceNames, pretty: process.stdout.isTTY === true, write: (text) => process.stdout.write(text) });
  const say = (line: string) => write('start', line);

  const missing = missingPrograms(process.env, { executable: hasExecutableSync, mongoCompatBuilt: existsSync(await mongoCompatBinaryPath()) });
  if (missing.length) {
    for (const { program, remedy } of missing) console.error(`pnpm start:services needs ${program}: ${remedy}`);
    process.exit(1);
  }
  // Loaded only now, so that a missing program is named before the kit's dependencies load.
  const { loadStartServicesConfig } = await import('./compose/start-services-config');
  const config = loadStartServicesConfig(process.env, process.cwd());
  // Before anything starts: a second run on this DATA_DIR, or a PORT taken, stops here.
  await ensurePortFree(config.gatewayPort);
  const usesLocalBackends = !process.env.MONGO_URL || !process.env.NATS_URL || !process.env.REDIS_URL;
  const unlock = usesLocalBackends ? await lockBackendDataDir(config.backendDataDir, dirname(config.backendDataDir)) : undefined;
  if (config.generatedSecret) say('PRINCIPAL_SECRET is not set: using a random one for this run (set it to keep signed values across runs)');
  // Webhooks are signed on a plain run too, with each project's key the same from run to run.
  const webhookSecret = config.webhookSecretFile ? await keptWebhookSecret(config.webhookSecretFile, say) : undefined;

  let backends: BackendServers | undefined;
  let topology: LocalTopology | undefined;
  let stopping = false;
  const stopAll = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    backends?.holdRestarts();
    await topology?.stop();
    await backends?.stop();
    await unlock?.();
    process.exit(exitCode);
  };
  // `on`, not `once`: at a terminal Ctrl-C reaches node and pnpm, which passes it on; a second signal must not kill this process mid-stop.
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  try {
    say(`starting backends (data in ${config.backendDataDir} unless MONGO_URL, NATS_URL, REDIS_URL name servers)`);
    // Like the compose file's backends (restart: unless-stopped): a crashed one is said and restarted.
    backends = await startBackendServers(process.env, { dataDir: config.backendDataDir, onBackendEvent: (server, message) => say(`${server} ${message}`) });
    topology = await startLocalTopology({
      backendUrls: backends.urls,
      variables: { ...process.env, NODE_ENV: config.nodeEnv, PRINCIPAL_SECRET: config.principalSecret, ...(webhookSecret ? { ACTIONS_WEBHOOK_SECRET: webhookSecret } : {}) },
      gatewayPort: config.gatewayPort,
      metricsPort: config.metricsPort,
      // The configured namespace (none by default), the same on every start so durables resume.
      natsNamespace: process.env.NATS_NAMESPACE ?? '',
      redisKeyPrefix: process.env.REDIS_KEY_PREFIX ?? '',
      onLine: (service, line) => {
        write(service, line);
        // Identity writes it on the gateway's address (PUBLIC_URL): said again among the start-up lines, where people look.
        const promotionUrl = /"promotionUrl":"([^"]+)"/.exec(line)?.[1];
        if (promotionUrl) say(`development owner promotion: open ${promotionUrl}`);
      },
      onEvent: (service, message) => say(`${service} ${message}`),
    });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    await stopAll(1);
    return;
  }
  const { mongo, nats, redis } = backends.urls;
  say(`gateway ready at ${topology.gatewayUrl} (${config.nodeEnv}; mongo ${mongo}, nats ${nats}, redis ${redis}); Ctrl-C stops everything`);
  const owner = promoteOwnerCommand({ mongoUrl: mongo, mongoDatabase: process.env.MONGO_DATABASE || 'platform', redisUrl: redis, redisKeyPrefix: topology.redisKeyPrefix });
  say(`make an account platform owner: ${owner}`);
  await announceMetrics(topology, resolve(config.backendDataDir, 'prometheus-targets.json'), say);
}

/**
 * Lists each process's metrics address and writes them where a local Prometheus finds them
 * (`file_sd_configs`); without METRICS_PORT the file of an earlier run goes, so that Prometheus
 * stops scraping listeners that are not there.
 */
async function announceMetrics(topology: LocalTopology, targetsFile: string, say: (line: string) => void): Promise<void> {
  if (topology.metricsTargets.length === 0) return void (await rm(targetsFile, { force: true }));
  // Backends given by URL leave the directory unmade.
  await mkdir(dirname(targetsFile), { recursive: true });
  await writeFile(targetsFile, prometheusTargetsFile(topology.metricsTargets));
  say(`metrics: ${topology.metricsTargets.map(({ instance, url }) => `${instance} ${url}`).join(', ')}`);
  say(`Prometheus targets of this run (file_sd_configs): ${targetsFile}`);
}

void main().catch((error: unknown) => {
  // A ConfigError's message names the variable; anything else keeps its stack.
  console.error(error instanceof Error && (error.name === 'ConfigError' || error.name === 'StartError') ? error.message : error);
  process.exit(1);
});

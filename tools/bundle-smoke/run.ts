import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startBackendServers, type BackendServers } from '../../libs/testkit/src/servers';
import { startLocalTopology, type LocalTopology } from '../../platform/src/compose/local-topology';
import { runSmokeRequests } from '../../platform/src/compose/smoke-requests';
import { prepareImageDirectory } from './image-directory';

const run = promisify(execFile);
const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * `pnpm test:bundle` (after `pnpm build`): runs the bundle the container image runs, from a
 * directory holding only what the Dockerfile copies plus the packages it installs, as the
 * microservice topology of docker-compose.yml (one process per service, real MongoDB-compatible
 * server, NATS and Redis), and sends the smoke requests through its gateway: sign-up, a document,
 * the audit trail, and the bundled promote-owner command. Ends with one PASS or FAIL line.
 */
async function main(): Promise<string[]> {
  let appDir: string | undefined;
  let backends: BackendServers | undefined;
  let topology: LocalTopology | undefined;
  const lines: string[] = [];
  try {
    appDir = await prepareImageDirectory(resolve(repositoryRoot, 'dist'), resolve(repositoryRoot, 'apps/console/dist'), resolve(repositoryRoot, 'docs'));
    backends = await startBackendServers();
    topology = await startLocalTopology({
      backendUrls: backends.urls,
      variables: { PRINCIPAL_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn' },
      command: { executable: process.execPath, args: ['dist/platform.mjs'], cwd: appDir },
      // The Dockerfile's ENV: the console and the guides beside dist.
      extraEnvironment: { CONSOLE_DIR: join(appDir, 'console'), GUIDES_DIR: join(appDir, 'docs') },
      onLine: (service, line) => lines.push(`${service} | ${line}`),
    });
    const { mongo, redis } = backends.urls;
    // promote-owner revokes the account's sessions where the services keep them.
    const { redisKeyPrefix } = topology;
    const cwd = appDir;
    return await runSmokeRequests(topology.gatewayUrl, {
      promoteOwner: async (email) => {
        await run(process.execPath, ['dist/promote-owner.mjs', email], { cwd, env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', MONGO_URL: mongo, REDIS_URL: redis, REDIS_KEY_PREFIX: redisKeyPrefix }, timeout: 30_000 });
      },
    });
  } catch (error) {
    if (lines.length) console.error(lines.slice(-40).join('\n'));
    throw error;
  } finally {
    await topology?.stop();
    await backends?.stop();
    if (appDir) await rm(appDir, { recursive: true, force: true });
  }
}

const started = Date.now();
try {
  const steps = await main();
  console.log(`bundle smoke: PASS in ${((Date.now() - started) / 1000).toFixed(1)} s (${steps.join(', ')} through dist/platform.mjs as 7 services)`);
} catch (error) {
  console.error(`bundle smoke: FAIL after ${((Date.now() - started) / 1000).toFixed(1)} s: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@platform/testkit/servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagePrograms } from './image-programs';
import { runSmokeRequests } from './smoke-requests';

const run = promisify(execFile);
const repositoryRoot = resolve(__dirname, '../../..');

/** Why `docker compose` cannot run here, or undefined when an engine answers. */
async function noComposeReason(): Promise<string | undefined> {
  try {
    await run('docker', ['compose', 'version'], { timeout: 10_000 });
    await run('docker', ['info'], { timeout: 10_000 });
    return undefined;
  } catch (error) {
    return `no Docker engine with compose answers (docker compose version / docker info: ${(error as Error).message.split('\n')[0]})`;
  }
}

const reason = await noComposeReason();
const title = 'docker compose up --wait brings the platform up';

// Without an engine (as on this project's CI machine) the suite is skipped with the reason in its title.
(reason ? describe.skip : describe)(reason ? `${title} [skipped: ${reason}]` : title, () => {
  const project = `platform-test-${randomBytes(4).toString('hex')}`;
  let port: number;
  let env: NodeJS.ProcessEnv;
  const compose = (args: string[], timeout = 60_000) => run('docker', ['compose', '-p', project, '-f', 'docker-compose.yml', ...args], { cwd: repositoryRoot, env, timeout, maxBuffer: 64 * 1024 * 1024 });

  beforeAll(async () => {
    port = await freePort();
    env = { ...process.env, PRINCIPAL_SECRET: randomBytes(32).toString('hex'), PORT: String(port), LOG_LEVEL: 'warn' };
    await compose(['up', '--build', '--detach', '--wait', '--wait-timeout', '600'], 900_000);
  }, 900_000);

  afterAll(async () => {
    await compose(['down', '--volumes', '--timeout', '5'], 120_000).catch(() => undefined);
  }, 120_000);

  it('has every program the healthchecks run in each image (the table beside the compose file)', async () => {
    for (const [image, programs] of Object.entries(imagePrograms)) {
      for (const program of programs) {
        const found = await run('docker', ['run', '--rm', '--entrypoint', 'sh', image, '-c', `command -v ${program}`], { timeout: 120_000 }).then(
          () => true,
          () => false,
        );
        expect({ image, program, found }).toEqual({ image, program, found: true });
      }
    }
  }, 600_000);

  it('signs up, writes a document, shows it in the audit trail and promotes an owner through the gateway', async () => {
    const steps = await runSmokeRequests(`http://127.0.0.1:${port}`, {
      promoteOwner: async (email) => void (await compose(['exec', '-T', 'identity', 'node', 'dist/promote-owner.mjs', email])),
    });
    expect(steps).toEqual(['health', 'guides', 'sign-up', 'document', 'audit trail', 'promote-owner']);
  }, 120_000);
});

import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { composeConfig, ensureComposeConfigBinary } from './compose-config';
import { imagePrograms } from './image-programs';

const repositoryRoot = resolve(__dirname, '../../..');
const composePath = resolve(repositoryRoot, 'docker-compose.yml');
const platformServices = ['gateway', 'identity', 'data', 'audit', 'publishing', 'actions', 'visitors'];
const secret = 'a'.repeat(64);
/** Directories made by copyOfComposeFile, removed after each test. */
const copies: string[] = [];

/** docker-compose.yml with what it includes and mounts, in a directory of its own (to edit it, or give it an .env). */
async function copyOfComposeFile(edit: (text: string) => string = (text) => text): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'compose-config-'));
  copies.push(dir);
  await cp(resolve(repositoryRoot, 'observability'), join(dir, 'observability'), { recursive: true });
  await cp(resolve(repositoryRoot, 'deploy'), join(dir, 'deploy'), { recursive: true });
  const edited = edit(await readFile(composePath, 'utf8'));
  await writeFile(join(dir, 'docker-compose.yml'), edited);
  return dir;
}

/** Replaces `from` once, failing when the compose file no longer holds it (so the edit cannot silently miss). */
function replaceOnce(text: string, from: string, to: string): string {
  expect(text).toContain(from);
  return text.replace(from, to);
}

describe('docker compose config (compose-go, the loader docker compose runs) on docker-compose.yml', () => {
  beforeAll(async () => {
    // Built once before the suite's clock in CI (.ci/run); a first local run builds it here.
    await ensureComposeConfigBinary();
  }, 900_000);

  afterEach(async () => {
    await Promise.all(copies.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('accepts the file with its include, with and without the observability profile', async () => {
    const plain = await composeConfig({ files: [composePath], env: { PRINCIPAL_SECRET: secret } });
    expect(plain.valid ? Object.keys(plain.project.services).sort() : plain.error).toEqual([...platformServices, 'mongo', 'nats', 'redis', 'load-balancer'].sort());
    const observed = await composeConfig({ files: [composePath], env: { PRINCIPAL_SECRET: secret }, profiles: ['observability'] });
    expect(observed.valid ? Object.keys(observed.project.services) : observed.error).toEqual(expect.arrayContaining(['prometheus', 'grafana', 'otel-collector', 'jaeger', 'gateway']));
  });

  it('runs every healthcheck of the resolved project, profiles included, with a program its image has', async () => {
    const result = await composeConfig({ files: [composePath], env: { PRINCIPAL_SECRET: secret }, profiles: ['observability'] });
    if (!result.valid) throw new Error(result.error);
    const checked = Object.entries(result.project.services).filter(([, service]) => service.healthcheck?.test);
    expect(checked.map(([name]) => name).sort()).toEqual([...platformServices, 'mongo', 'nats', 'redis', 'load-balancer'].sort());
    for (const [name, service] of checked) {
      const [kind, program] = service.healthcheck!.test!;
      expect({ name, kind, program, image: service.image, has: imagePrograms[service.image!]?.includes(program!) ?? false }).toEqual({ name, kind: 'CMD', program, image: service.image, has: true });
    }
  });

  it('refuses to start without PRINCIPAL_SECRET, naming it', async () => {
    const result = await composeConfig({ files: [composePath], env: {} });
    expect(result.valid ? 'accepted' : result.error).toContain('required variable PRINCIPAL_SECRET is missing a value: set PRINCIPAL_SECRET to 32 or more random characters');
  });

  it('refuses a misspelt key and a dependency on no service, naming them', async () => {
    const misspelt = await copyOfComposeFile((text) => replaceOnce(text, '    image: nats:2.10-alpine\n', '    image: nats:2.10-alpine\n    enviroment: {}\n'));
    const typo = await composeConfig({ files: [join(misspelt, 'docker-compose.yml')], env: { PRINCIPAL_SECRET: secret } });
    expect(typo.valid ? 'accepted' : typo.error).toContain('services.nats.enviroment');
    const dangling = await copyOfComposeFile((text) => replaceOnce(text, '    depends_on:\n      gateway: { condition: service_healthy }', '    depends_on:\n      search: { condition: service_healthy }'));
    const missing = await composeConfig({ files: [join(dangling, 'docker-compose.yml')], env: { PRINCIPAL_SECRET: secret } });
    expect(missing.valid ? 'accepted' : missing.error).toContain('service "load-balancer" depends on undefined service "search"');
  });

  it('takes settings from an .env file beside it, the shell winning, the documented defaults for the rest', async () => {
    const dir = await copyOfComposeFile();
    await writeFile(join(dir, '.env'), `PRINCIPAL_SECRET=${secret}\nLOG_LEVEL=debug\nBODY_LIMIT_BYTES=2048\nPORT=8080\nSMTP_URL=smtp://mail.example.org:587\n`);
    const result = await composeConfig({ files: [join(dir, 'docker-compose.yml')], env: { BODY_LIMIT_BYTES: '4096' } });
    if (!result.valid) throw new Error(result.error);
    for (const service of platformServices) {
      const environment = result.project.services[service]!.environment!;
      expect({ service, ...pick(environment, ['PRINCIPAL_SECRET', 'LOG_LEVEL', 'BODY_LIMIT_BYTES', 'SMTP_URL', 'TRUST_PROXY', 'MONGO_DATABASE', 'MAIL_FROM']) }).toEqual({
        service,
        PRINCIPAL_SECRET: secret,
        LOG_LEVEL: 'debug',
        BODY_LIMIT_BYTES: '4096',
        SMTP_URL: 'smtp://mail.example.org:587',
        TRUST_PROXY: '1',
        MONGO_DATABASE: 'platform',
        MAIL_FROM: 'Platform <no-reply@localhost>',
      });
    }
    expect(result.project.services['load-balancer']!.ports).toEqual([expect.objectContaining({ target: 80, published: '8080' })]);
  });
});

function pick(environment: Record<string, string | null>, names: string[]): Record<string, string | null | undefined> {
  return Object.fromEntries(names.map((name) => [name, environment[name]]));
}

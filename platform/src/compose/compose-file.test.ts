import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { dataEnvSchema } from '@platform/documents';
import { actionsEnvSchema } from '../../../services/actions/src/config';
import { auditEnvSchema } from '../../../services/audit/src/config';
import { identityEnvSchema } from '../../../services/identity/src/config';
import { publishingEnvSchema } from '../../../services/publishing/src/config';
import { visitorsEnvSchema } from '../../../services/visitors/src/config';
import { composeFileSchema, readComposeFile, type ComposeFile } from './compose-file';
import { platformEnvSchema } from '../config';
import { imagePrograms } from './image-programs';

const repositoryRoot = resolve(__dirname, '../../..');
const composePath = resolve(repositoryRoot, 'docker-compose.yml');
const platformServices = ['gateway', 'identity', 'data', 'audit', 'publishing', 'actions', 'visitors'];

/** Set by compose for its own network (or, DATA_DIR, used only by the all-in-one): not passed through. */
const topologyVariables: Record<string, string> = {
  HOST: 'every container listens on 0.0.0.0',
  PORT: 'every container listens on 3000; PORT is the gateway host port',
  SERVICES: 'one service per container',
  DATA_DIR: 'only the all-in-one (embedded store) reads it',
  EMBEDDED_MEMORY_BUDGET_MB: 'only the all-in-one (embedded store) reads it',
  SHUTDOWN_DRAIN_MS: 'only the in-process bus (all-in-one) drains; JetStream keeps unacknowledged messages',
  MONGO_URL: 'the mongo service',
  NATS_URL: 'the nats service',
  REDIS_URL: 'the redis service',
  PRINCIPAL_SECRET: 'required, no default',
  IDENTITY_URL: 'the gateway reaches identity by name',
  DATA_URL: 'the gateway reaches data by name',
  AUDIT_URL: 'the gateway reaches audit by name',
  PUBLISHING_URL: 'the gateway reaches publishing by name',
  ACTIONS_URL: 'the gateway reaches actions by name',
  VISITORS_URL: 'the gateway reaches visitors by name',
  CONSOLE_DIR: "the image's built console (the Dockerfile sets /app/console)",
  GUIDES_DIR: "the image's guides (the Dockerfile sets /app/docs)",
};
/** Where compose's default differs from the single process's on purpose. */
const composeDefaults: Record<string, string> = { NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:${PORT:-3000}', TRUST_PROXY: '1' };

/** The raw (not interpolated) environment of a container, merge keys resolved. */
function environmentOf(file: ComposeFile, service: string): Record<string, string> {
  const environment = file.services[service]?.environment ?? {};
  if (Array.isArray(environment)) throw new Error(`${service}: use a map for environment`);
  return Object.fromEntries(Object.entries(environment).map(([key, value]) => [key, value === null ? '' : String(value)]));
}

/** The README's configuration table as variable → default ('' for unset). */
async function readmeVariables(): Promise<Map<string, string>> {
  const readme = await readFile(resolve(repositoryRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
  const variables = new Map<string, string>();
  for (const row of section.split('\n').filter((line) => line.startsWith('| `'))) {
    const [names, defaults] = row.split(' | ').map((cell) => cell.replace(/^\| /, ''));
    const nameList = [...names!.matchAll(/`([A-Z_*]+)`/g)].map((match) => match[1]!);
    const defaultList = nameList.length > 1 ? defaults!.split(', ') : [defaults!];
    nameList.forEach((name, index) => {
      const text = defaultList[index] ?? '';
      variables.set(name, /^`.*`$/.test(text) ? text.slice(1, -1) : text === 'unset' ? '' : text);
    });
  }
  return variables;
}

/** A schema's defaults as compose would write them ('' for none, lists comma-joined). */
function schemaDefaults(schema: z.ZodObject): Map<string, string> {
  const parsed = schema.parse({}) as Record<string, unknown>;
  return new Map(Object.keys(schema.shape).map((key) => [key, Array.isArray(parsed[key]) ? (parsed[key] as unknown[]).join(',') : parsed[key] === undefined ? '' : String(parsed[key])]));
}

describe('docker-compose.yml', () => {
  it('is valid against the compose schema this repository uses, and refuses what compose would', async () => {
    const file = await readComposeFile(composePath);
    expect(Object.keys(file.services).sort()).toEqual([...platformServices, 'mongo', 'nats', 'redis', 'load-balancer'].sort());
    const raw = parse(await readFile(composePath, 'utf8'), { merge: true }) as { services: Record<string, Record<string, unknown>> };
    const typo = structuredClone(raw);
    typo.services.data!.enviroment = {};
    expect(composeFileSchema.safeParse(typo).error?.issues[0]?.path).toEqual(['services', 'data']);
    const dangling = structuredClone(raw);
    (dangling.services.gateway!.depends_on as Record<string, unknown>).search = { condition: 'service_healthy' };
    expect(composeFileSchema.safeParse(dangling).error?.issues[0]?.message).toBe('names no service: search');
  });

  it('restarts every container unless stopped, the backends too: a crashed or rebooted MongoDB, NATS or Redis would otherwise stay down', async () => {
    const file = await readComposeFile(composePath);
    const policies = Object.fromEntries(Object.entries(file.services).map(([name, service]) => [name, service.restart]));
    expect(policies).toEqual(Object.fromEntries(Object.keys(file.services).map((name) => [name, 'unless-stopped'])));
  });

  it('runs every healthcheck with a program its image has', async () => {
    const file = await readComposeFile(composePath);
    for (const [name, service] of Object.entries(file.services)) {
      const test = service.healthcheck?.test;
      expect({ name, healthcheck: Array.isArray(test) && test[0] === 'CMD' }).toEqual({ name, healthcheck: true });
      const program = (test as string[])[1];
      expect({ name, image: service.image, programs: imagePrograms[service.image] }).toEqual({ name, image: service.image, programs: expect.arrayContaining([program]) });
    }
    // The scratch variant has no wget: this is the healthcheck that never passed.
    expect(imagePrograms['nats:2.10']).toBeUndefined();
  });

  it('counts MongoDB healthy only once its replica set member is primary, by the exit code', async () => {
    const file = await readComposeFile(composePath);
    const script = (file.services.mongo!.healthcheck!.test as string[]).at(-1)!;
    expect(script).toContain('rs.initiate(');
    expect(script).toMatch(/quit\(db\.hello\(\)\.isWritablePrimary \? 0 : 1\)$/);
  });

  it('publishes a host port only on the load balancer, from PORT, so the gateway and every service behind it scale', async () => {
    const file = await readComposeFile(composePath);
    const published = Object.entries(file.services).filter(([, service]) => service.ports?.length);
    expect(published.map(([name]) => name)).toEqual(['load-balancer']);
    expect(file.services['load-balancer']!.ports).toEqual(['${PORT:-3000}:80']);
    expect(file.services['load-balancer']!.depends_on).toEqual({ gateway: { condition: 'service_healthy' } });
  });

  it("balances over every gateway container by Docker's DNS, looked up again, with realtime streams unbuffered", async () => {
    const file = await readComposeFile(composePath);
    expect(file.services['load-balancer']!.volumes).toEqual(['./deploy/nginx.conf:/etc/nginx/nginx.conf:ro']);
    const config = await readFile(resolve(repositoryRoot, 'deploy/nginx.conf'), 'utf8');
    expect(config).toMatch(/resolver 127\.0\.0\.11 valid=\d+s/);
    expect(config).toContain('set $gateway http://gateway:3000;');
    expect(config).toContain('proxy_pass $gateway;');
    expect(config).toContain('proxy_buffering off;');
  });

  it('passes every variable of the README configuration table through with the README default', async () => {
    const file = await readComposeFile(composePath);
    const readme = await readmeVariables();
    expect(readme.size).toBeGreaterThan(20);
    const wildcards: Record<string, z.ZodObject> = { 'DATA_*': dataEnvSchema, 'ACTIONS_*': actionsEnvSchema, 'VISITORS_*': visitorsEnvSchema };
    const expected = new Map<string, string>();
    for (const [name, fallback] of readme) {
      if (name in topologyVariables) continue;
      if (name in wildcards) {
        for (const [variable, value] of schemaDefaults(wildcards[name]!)) expected.set(variable, value);
      } else {
        expected.set(name, composeDefaults[name] ?? fallback);
      }
    }
    for (const service of platformServices) {
      const environment = environmentOf(file, service);
      for (const [variable, fallback] of expected) {
        expect({ service, variable, value: environment[variable] }).toEqual({ service, variable, value: `\${${variable}:-${fallback}}` });
      }
    }
  });

  it('passes every variable a service reads through with the default its schema has', async () => {
    const file = await readComposeFile(composePath);
    const environment = environmentOf(file, 'data');
    const serviceDefaults = [identityEnvSchema, dataEnvSchema, publishingEnvSchema, auditEnvSchema, actionsEnvSchema, visitorsEnvSchema].flatMap((schema) => [...schemaDefaults(schema)]);
    for (const [variable, fallback] of serviceDefaults) {
      expect({ variable, value: environment[variable] }).toEqual({ variable, value: `\${${variable}:-${fallback}}` });
    }
  });

  it('passes every variable the process entry reads (HTTP timeouts and tracing included) through, or sets it for the topology', async () => {
    const file = await readComposeFile(composePath);
    /** Read by every process but not passed through, on purpose. */
    const perProcess: Record<string, string> = { OTEL_SERVICE_NAME: 'each process names itself platform-<service>', METRICS_HOST: 'every container serves metrics on 0.0.0.0' };
    for (const service of platformServices) {
      const environment = environmentOf(file, service);
      for (const variable of Object.keys(platformEnvSchema.shape)) {
        if (variable in topologyVariables || variable in perProcess) continue;
        expect({ service, variable, value: environment[variable] }).toEqual({ service, variable, value: expect.stringMatching(new RegExp(`^\\$\\{${variable}:[-?]`)) });
      }
    }
    expect(environmentOf(file, 'gateway').METRICS_HOST).toBe('0.0.0.0');
  });

  it('sets the topology variables in every container, and the service URLs at the gateway', async () => {
    const file = await readComposeFile(composePath);
    for (const service of platformServices) {
      const environment = environmentOf(file, service);
      expect(environment).toMatchObject({ HOST: '0.0.0.0', PORT: '3000', SERVICES: service, MONGO_URL: 'mongodb://mongo:27017/?replicaSet=rs0', NATS_URL: 'nats://nats:4222', REDIS_URL: 'redis://redis:6379' });
      expect(environment.PRINCIPAL_SECRET).toMatch(/^\$\{PRINCIPAL_SECRET:\?/);
    }
    const gateway = environmentOf(file, 'gateway');
    for (const service of platformServices.filter((name) => name !== 'gateway')) expect(gateway[`${service.toUpperCase()}_URL`]).toBe(`http://${service}:3000`);
  });
});

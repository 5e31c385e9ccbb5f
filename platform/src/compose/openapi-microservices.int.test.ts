import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithBackends } from '@platform/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadPlatformConfig } from '../config';
import { startPlatform, type RunningPlatform } from '../host';
import { startLocalTopology, type LocalTopology } from './local-topology';

interface OpenapiDocument {
  info: { title: string; description: string };
  paths: Record<string, Record<string, unknown>>;
  components?: unknown;
  security?: unknown;
}

const openapiDocument = async (baseUrl: string, path: string) => {
  const response = await fetch(`${baseUrl}${path}`);
  expect(response.status).toBe(200);
  return (await response.json()) as OpenapiDocument;
};

/**
 * The one documented difference (docs/architecture.md): `GET /api/health/{service}` is the
 * gateway's own route in the all-in-one shape, described there; in the microservice shape it is
 * proxied to that service's `/api/health`, which answers another body and is not described.
 */
const withoutServiceHealth = (paths: OpenapiDocument['paths']) => Object.fromEntries(Object.entries(paths).filter(([path]) => !/^\/api\/health\/[a-z]+$/.test(path)));

/** Every operation as `METHOD path`, sorted. */
const operations = (document: OpenapiDocument) => Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`)).sort();

describeWithBackends(['mongo', 'nats', 'redis'], 'one API description: the microservice gateway serves the all-in-one document', (urls) => {
  let allInOne: RunningPlatform;
  let topology: LocalTopology;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'openapi-all-in-one-'));
    const [platform, services] = await Promise.all([
      // In production, as the topology runs docker-compose.yml's services: the session cookie's name, which the document gives, follows NODE_ENV.
      startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'production', PRINCIPAL_SECRET: randomBytes(32).toString('hex') })),
      startLocalTopology({ backendUrls: urls, extraEnvironment: { LOG_LEVEL: 'warn', MONGO_DATABASE: `openapi_${randomBytes(4).toString('hex')}` } }),
    ]);
    allInOne = platform;
    topology = services;
  }, 180_000);

  afterAll(async () => {
    await Promise.all([allInOne?.close(), topology?.stop()]);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('/api/openapi.json describes the same operations with the same schemas in both shapes', async () => {
    const single = await openapiDocument(allInOne.url, '/api/openapi.json');
    const merged = await openapiDocument(topology.gatewayUrl, '/api/openapi.json');
    // Every service is described, not only the gateway's own routes.
    for (const path of ['/api/auth/register', '/api/projects/{projectId}/types', '/api/projects/{projectId}/audit-trail', '/api/projects/{projectId}/actions', '/api/projects/{projectId}/visitors', '/api/projects/{projectId}/domains'])
      expect(Object.keys(merged.paths)).toContain(path);
    const expected = { ...single, paths: withoutServiceHealth(single.paths) };
    expect(Object.keys(single.paths).length - Object.keys(expected.paths).length).toBe(6);
    expect(operations(merged)).toEqual(operations(expected));
    expect(merged.paths).toEqual(expected.paths);
    expect({ info: merged.info, components: merged.components, security: merged.security }).toEqual({ info: single.info, components: single.components, security: single.security });
  });

  it('the Swagger UI at /api/docs reads the same merged document', async () => {
    const page = await openapiDocument(topology.gatewayUrl, '/api/docs/json');
    const served = await openapiDocument(topology.gatewayUrl, '/api/openapi.json');
    expect(page).toEqual(served);
  });
});

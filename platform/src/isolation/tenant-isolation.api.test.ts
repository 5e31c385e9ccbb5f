import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlatformConfig } from '../config';
import { startPlatform, type RunningPlatform } from '../host';
import { sampleFromSchema, type JsonSchema } from './schema-sample';
import { httpCaller } from '../testing/platform-http';

interface Operation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
}

interface Caller {
  token: string;
  userId: string;
}

/**
 * Paths whose answers are platform-wide by design, not tenant data: user profiles (their own
 * privacy settings decide what others see) and the caller's own tenant list.
 */
const platformWide = [/^\/api\/users\//];

/**
 * Bodies for operations whose valid shape the schema alone does not pin down (a rule checked in
 * the handler), so the request gets past validation to the membership and RLS checks.
 */
const validBodies: Record<string, unknown> = {
  'POST /api/projects/{projectId}/types/{typeId}/batch-rls': { action: 'resetToDefault' },
  'POST /api/projects/{projectId}/domains': { hostname: 'taken-over.example.org' },
  'PATCH /api/projects/{projectId}/domains/{domainId}': { hostname: 'taken-over.example.org' },
  // Either an email or a user id: a sample with both is refused before any access check.
  'POST /api/projects/{projectId}/members': { email: 'taken-over@example.org', permissions: [] },
  // Every field is optional, but a change must name one.
  'PATCH /api/me/tokens/{tokenId}': { name: 'taken over' },
};

let dataDir: string;
let platform: RunningPlatform;
let alice: Caller;
let bob: Caller;
/** Ids of tenant A's resources, by the path-parameter name that addresses them. */
const aliceIds: Record<string, string> = {};
let bobProjectId: string;

const call = httpCaller(() => platform.url);

async function created(method: string, path: string, token: string, body?: unknown): Promise<any> {
  const response = await call(method, path, token, body);
  expect({ path, status: response.status }).toEqual({ path, status: method === 'POST' && !path.endsWith('/assign') ? 201 : 200 });
  return response.body;
}

async function register(name: string): Promise<Caller> {
  const response = await call('POST', '/api/auth/register', undefined, { email: `${name}-${Date.now()}@example.org`, password: 'isolation test password', displayName: name });
  return { token: response.body.token, userId: response.body.user.id };
}

/** Everything tenant A's owner can read about tenant A, to prove nothing changed. */
async function snapshotOfTenantA(): Promise<unknown> {
  const projectPath = `/api/projects/${aliceIds.projectId}`;
  const paths = [
    `/api/tenants/${aliceIds.tenantId}`,
    `/api/tenants/${aliceIds.tenantId}/members`,
    `/api/tenants/${aliceIds.tenantId}/projects`,
    projectPath,
    `${projectPath}/members`,
    `${projectPath}/types?updatedAt=0`,
    `${projectPath}/types/${aliceIds.typeId}/data?updatedAt=0&includeChanges=true`,
    `${projectPath}/applications?updatedAt=0`,
    `${projectPath}/applications/${aliceIds.appId}/versions`,
    `${projectPath}/domains`,
    `${projectPath}/actions`,
  ];
  return Promise.all(paths.map(async (path) => ({ path, ...(await call('GET', path, alice.token)) })));
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tenant-isolation-'));
  platform = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  alice = await register('alice');
  bob = await register('bob');

  const tenant = await created('POST', '/api/tenants', alice.token, { name: 'Tenant A' });
  const project = await created('POST', '/api/projects', alice.token, { name: 'A project', tenantId: tenant.id });
  const projectPath = `/api/projects/${project.id}`;
  await created('POST', `${projectPath}/types`, alice.token, { id: 'tasks', name: 'Tasks' });
  const document = await created('POST', `${projectPath}/types/tasks/data`, alice.token, { title: 'Secret plan' });
  const application = await created('POST', `${projectPath}/applications`, alice.token, { title: { en: 'Shop' }, routes: [], serverConfiguration: { apiKey: 'a-secret' } });
  const version = await created('POST', `${projectPath}/applications/${application.id}/publish`, alice.token);
  const domain = await created('POST', `${projectPath}/domains`, alice.token, { hostname: `alice-${Date.now()}.example.org` });
  const action = await created('POST', `${projectPath}/actions`, alice.token, { title: 'Nothing yet' });
  Object.assign(aliceIds, {
    tenantId: tenant.id,
    projectId: project.id,
    typeId: 'tasks',
    id: document.id,
    // A revision A's document has, so the state-at-revision route is asked for something that exists.
    revision: '0',
    appId: application.id,
    versionId: version.id,
    domainId: domain.id,
    actionId: action.id,
    userId: alice.userId,
  });

  // Bob has a project of his own (in his personal tenant) with the same type id, so ids of A's
  // entities sent into B's own namespace must not find them either.
  bobProjectId = (await created('POST', '/api/projects', bob.token, { name: 'B project' })).id;
  await created('POST', `/api/projects/${bobProjectId}/types`, bob.token, { id: 'tasks', name: 'Tasks' });
}, 60_000);

afterAll(async () => {
  await platform?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function requestFor(method: string, path: string, operation: Operation, ids: Record<string, string>): { url: string; body: unknown } | undefined {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
  // An id this suite did not create (a visitor, a run, an agent) gets one that exists nowhere.
  const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? `unknown-${name}`));
  if (names.length === 0) return undefined;
  const query = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query' && parameter.required);
  const search = new URLSearchParams(query.map((parameter): [string, string] => [parameter.name, String(sampleFromSchema(parameter.schema))]));
  const body = validBodies[`${method} ${path}`] ?? sampleFromSchema(operation.requestBody?.content?.['application/json']?.schema);
  return { url: `${url}${query.length ? `?${search}` : ''}`, body };
}

describe('tenant isolation', () => {
  it("replays every route of the OpenAPI document as another tenant's user with tenant A's ids: 403 or 404, and nothing changes", async () => {
    const document = (await call('GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
    const before = await snapshotOfTenantA();
    const results: Array<{ method: string; path: string; status: number }> = [];

    for (const [path, operations] of Object.entries(document.paths)) {
      if (platformWide.some((pattern) => pattern.test(path))) continue;
      for (const [method, operation] of Object.entries(operations)) {
        // Public routes (no session by design: health, sign-in, domain resolution, visitor check-in) are not tenant-guarded.
        if (operation.security?.length === 0) continue;
        const request = requestFor(method.toUpperCase(), path, operation, aliceIds);
        if (!request) continue;
        const response = await call(method.toUpperCase(), request.url, bob.token, request.body);
        results.push({ method: method.toUpperCase(), path, status: response.status });
      }
    }
    console.table(results);
    expect(results.length).toBeGreaterThan(30);
    expect(results.filter((result) => result.status !== 403 && result.status !== 404)).toEqual([]);
    expect(await snapshotOfTenantA()).toEqual(before);
  }, 120_000);

  it("finds none of tenant A's entities through the caller's own project, whatever ids it sends", async () => {
    const document = (await call('GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
    const before = await snapshotOfTenantA();
    const results: Array<{ method: string; path: string; status: number }> = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      // Only paths inside a project that also name an entity of it.
      if (!path.startsWith('/api/projects/{projectId}/') || !/\{(?!projectId\})[^}]+\}/.test(path)) continue;
      for (const [method, operation] of Object.entries(operations)) {
        if (operation.security?.length === 0) continue;
        const request = requestFor(method.toUpperCase(), path, operation, { ...aliceIds, projectId: bobProjectId });
        if (!request) continue;
        const response = await call(method.toUpperCase(), request.url, bob.token, request.body);
        // Bob owns this project, so a route may answer 2xx; what it answers must not be A's.
        if (response.status < 300) expect({ path, leaked: JSON.stringify(response.body).includes('Secret plan') || JSON.stringify(response.body).includes(aliceIds.appId!) }).toEqual({ path, leaked: false });
        results.push({ method: method.toUpperCase(), path, status: response.status });
      }
    }
    console.table(results);
    expect(results.length).toBeGreaterThan(10);
    expect(results.filter((result) => result.status < 300 && /\{(id|appId|versionId|domainId|actionId)\}/.test(result.path) && result.method !== 'POST')).toEqual([]);
    expect(await snapshotOfTenantA()).toEqual(before);
  }, 120_000);
});

import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMongoStore } from '@platform/storage';
import { describeWithBackends } from '@platform/testkit';
import { freePort } from '@platform/testkit/servers';
import { afterAll, expect, it } from 'vitest';
import { startLocalTopology, type LocalTopology } from '../compose/local-topology';
import { loadPlatformConfig } from '../config';
import { startPlatform, type RunningPlatform } from '../host';
import { backUpEmbeddedStore } from './back-up';
import { exportStore } from './export-store';
import { importStore } from './import-store';
import { Progress } from './progress';

const silent = new Progress('test', { isTTY: false } as NodeJS.WriteStream);
const PASSWORD = 'moving password 1';

async function call(baseUrl: string, method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function ok(baseUrl: string, method: string, path: string, token: string, body?: unknown): Promise<any> {
  const response = await call(baseUrl, method, path, { token, body });
  expect({ method, path, status: response.status < 300 ? 'ok' : response }).toEqual({ method, path, status: 'ok' });
  return response.body;
}

/** A workload over every service: account, project, type, documents with history, audit, an action that runs, a published version, a domain. */
async function workload(baseUrl: string, email: string): Promise<{ projectId: string; actionId: string; appId: string }> {
  const { token } = (await call(baseUrl, 'POST', '/api/auth/register', { body: { email, password: PASSWORD, displayName: 'Mover' } })).body as { token: string };
  const { id: projectId } = await ok(baseUrl, 'POST', '/api/projects', token, { name: 'Moving house' });
  await ok(baseUrl, 'POST', `/api/projects/${projectId}/types`, token, { id: 'notes', name: 'Notes' });
  const action = await ok(baseUrl, 'POST', `/api/projects/${projectId}/actions`, token, {
    title: 'Check new notes',
    triggers: [{ id: 't1', triggerName: 'documentCreated', configuration: { typeId: 'notes' } }],
    blocks: [{ id: 'check', blockName: 'conditional-logic', configuration: { path: 'data.document.urgent', operator: 'truthy' } }],
    connections: [],
  });
  await ok(baseUrl, 'POST', `/api/projects/${projectId}/types/notes/data`, token, { id: 'n1', title: 'First', urgent: true });
  await ok(baseUrl, 'POST', `/api/projects/${projectId}/types/notes/data`, token, { id: 'n2', title: 'Second' });
  await ok(baseUrl, 'PATCH', `/api/projects/${projectId}/types/notes/data/n1`, token, { modifier: { $set: { title: 'First, edited' } }, baseRevision: 0 });
  const app = await ok(baseUrl, 'POST', `/api/projects/${projectId}/applications`, token, { title: { en: 'Shop' } });
  await ok(baseUrl, 'POST', `/api/projects/${projectId}/applications/${app.id}/publish`, token);
  await ok(baseUrl, 'POST', `/api/projects/${projectId}/domains`, token, { hostname: 'shop.example.com', targetType: 'application', targetId: app.id });
  // The audit trail and the action's runs follow the document events.
  await expect.poll(async () => (await call(baseUrl, 'GET', `/api/projects/${projectId}/audit-trail?typeId=notes`, { token })).body?.items?.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  await expect.poll(async () => (await call(baseUrl, 'GET', `/api/projects/${projectId}/actions/${action.id}/runs`, { token })).body?.total, { timeout: 20_000 }).toBe(2);
  return { projectId, actionId: action.id as string, appId: app.id as string };
}

/** What a user sees: the answers the move must keep. */
async function answers(baseUrl: string, token: string, ids: { projectId: string; actionId: string; appId: string }): Promise<Record<string, unknown>> {
  const project = `/api/projects/${ids.projectId}`;
  const paths = [
    '/api/me',
    project,
    `${project}/types/notes/data/n1?includeChanges=true`,
    `${project}/types/notes/data/n2?includeChanges=true`,
    `${project}/audit-trail?typeId=notes`,
    `${project}/actions`,
    `${project}/actions/${ids.actionId}/runs`,
    `${project}/applications/${ids.appId}/versions`,
    `${project}/domains`,
  ];
  const seen: Record<string, unknown> = {};
  for (const path of paths) seen[path] = await ok(baseUrl, 'GET', path, token);
  return seen;
}

describeWithBackends(['mongo', 'nats', 'redis'], 'moving an all-in-one to the microservice shape with pnpm data:export and data:import', (urls) => {
  let root: string;
  let allInOne: RunningPlatform | undefined;
  let topology: LocalTopology | undefined;

  afterAll(async () => {
    await allInOne?.close();
    await topology?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('answers the same documents, history, audit trail, actions and runs, versions, domains and user; users sign in again', async () => {
    root = await mkdtemp(join(tmpdir(), 'move-'));
    const dataDir = join(root, 'data');
    allInOne = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
    const email = `mover-${randomBytes(4).toString('hex')}@example.org`;
    const ids = await workload(allInOne.url, email);
    const oldToken = ((await call(allInOne.url, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } })).body as { token: string }).token;
    const before = await answers(allInOne.url, oldToken, ids);
    await allInOne.close();
    allInOne = undefined;

    await exportStore(join(root, 'export'), (scratch) => backUpEmbeddedStore(dataDir, scratch), silent);
    const database = `move_${randomBytes(4).toString('hex')}`;
    const mongo = await createMongoStore({ url: urls.mongo, database });
    try {
      await importStore(join(root, 'export'), mongo, silent);
    } finally {
      await mongo.close();
    }

    // As docs/ports.md says: the webhook secret the all-in-one generated goes along, so every project keeps its webhook key.
    const webhookSecret = (await readFile(join(dataDir, 'webhook-secret'), 'utf8')).trim();
    topology = await startLocalTopology({
      backendUrls: urls,
      gatewayPort: await freePort(),
      variables: { NODE_ENV: 'development', LOG_LEVEL: 'warn', ACTIONS_WEBHOOK_SECRET: webhookSecret },
      extraEnvironment: { MONGO_DATABASE: database },
    });
    const gateway = topology.gatewayUrl;
    expect((await call(gateway, 'GET', '/api/me', { token: oldToken })).status).toBe(401);
    const login = await call(gateway, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    expect(await answers(gateway, login.body.token as string, ids)).toEqual(before);
  }, 300_000);
});

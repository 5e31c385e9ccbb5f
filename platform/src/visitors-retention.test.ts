import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createEmbeddedStore } from '@platform/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform, type RunningPlatform } from './host';
import { runVisitorsRetention } from './visitors-retention';

const DAY = 24 * 60 * 60 * 1000;
let dataDir: string | undefined;

afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('visitor retention command', () => {
  it('erases expired visitors on demand and keeps the others', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'retention-command-'));
    const now = Date.now();
    const store = await createEmbeddedStore({ dataDir });
    // The visitors service's ledger of the visitors it checked in (see docs/visitors.md, Retention).
    const ledger = store.collection('visitor-retention');
    await ledger.insertOne({ id: 'tenant-p1-guests/expired', kind: 'visitor', projectId: 'p1', typeId: 'guests', collection: 'tenant-p1-guests', entityId: 'expired', deleteOn: now - DAY, deleteOnPreference: DAY });
    await ledger.insertOne({ id: 'tenant-p1-guests/kept', kind: 'visitor', projectId: 'p1', typeId: 'guests', collection: 'tenant-p1-guests', entityId: 'kept', deleteOn: now + DAY, deleteOnPreference: 2 * DAY });
    const guests = store.collection('tenant-p1-guests');
    await guests.insertOne({ id: 'expired', name: 'Ada', revision: 0, createdAt: now - 2 * DAY, updatedAt: now - 2 * DAY, deleteOn: now - DAY, deleteOnPreference: DAY });
    await guests.insertOne({ id: 'kept', name: 'Bob', revision: 0, createdAt: now, updatedAt: now, deleteOn: now + DAY, deleteOnPreference: 2 * DAY });
    await store.close();

    const result = spawnSync(process.execPath, ['--import', 'tsx', 'platform/src/visitors-retention.ts'], {
      cwd: resolve(__dirname, '../..'),
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ visitors: 1, events: 0 });

    const after = await createEmbeddedStore({ dataDir });
    try {
      const expired = await after.collection('tenant-p1-guests').findById('expired');
      expect(expired).toMatchObject({ id: 'expired', revision: 1, deletedAt: expect.any(Number) });
      expect(expired).not.toHaveProperty('name');
      expect(await after.collection('tenant-p1-guests').findById('kept')).toMatchObject({ name: 'Bob', revision: 0 });
    } finally {
      await after.close();
    }
  });

  it('with the embedded store, the erasures reach the audit trail once the platform runs again', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'retention-audit-'));
    const config = loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const time = { now: Date.now() };
    const clock = () => time.now;
    const credentials = { email: `owner-${time.now}@example.org`, password: 'retention owner password' };

    let platform = await startPlatform(config, { clock });
    let projectId: string;
    try {
      const token = (await call(platform, 'POST', '/api/auth/register', undefined, credentials)).body.token as string;
      projectId = (await call(platform, 'POST', '/api/projects', token, { name: 'Reception' })).body.id as string;
      for (const type of ['guests', 'guest-events']) expect((await call(platform, 'POST', `/api/projects/${projectId}/types`, token, { id: type, name: type })).status).toBe(201);
      const checkIn = { visitorTypeId: 'guests', visitorEventTypeId: 'guest-events', deletionPeriods: [{ duration: DAY, label: { en: '1 day' }, isDefault: true }] };
      const application = { id: 'kiosk', title: { en: 'Kiosk' }, routes: [{ path: '/', widgetTree: { rootWidgetId: 'root', widgets: { root: { id: 'root', name: 'CheckIn', data: checkIn } } } }] };
      expect((await call(platform, 'POST', `/api/projects/${projectId}/applications`, token, application)).status).toBe(201);
      const visitor = await call(platform, 'POST', `/api/projects/${projectId}/visitors`, undefined, { collectionName: `tenant-${projectId}-guests`, data: { name: 'Ada' } });
      expect(visitor.status).toBe(201);
      const event = await call(platform, 'POST', `/api/projects/${projectId}/visitors/${visitor.body.id}/events`, undefined, { collectionName: `tenant-${projectId}-guest-events`, data: { eventType: 'checkIn' } }, { 'x-visitor-secret': visitor.body.secret });
      expect(event.status).toBe(201);
    } finally {
      await platform.close();
    }

    // The platform is stopped (one process per embedded store); the operator runs the command.
    time.now += 2 * DAY;
    expect(await runVisitorsRetention(config, { clock })).toEqual({ visitors: 1, events: 1 });
    time.now += 60_000;

    platform = await startPlatform(config, { clock });
    try {
      const token = (await call(platform, 'POST', '/api/auth/login', undefined, credentials)).body.token as string;
      const erasures = async () =>
        (await call(platform, 'GET', `/api/projects/${projectId}/audit-trail?userId=system:retention`, token)).body.items as Array<{ entityTypeId: string; changeDescription: string }>;
      await expect.poll(erasures, { timeout: 10_000 }).toHaveLength(2);
      expect((await erasures()).map((item) => [item.entityTypeId, item.changeDescription]).sort()).toEqual([
        ['guest-events', 'audit.deleted'],
        ['guests', 'audit.deleted'],
      ]);
    } finally {
      await platform.close();
    }
  });
});

async function call(platform: RunningPlatform, method: string, path: string, token?: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${platform.url}${path}`, {
    method,
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

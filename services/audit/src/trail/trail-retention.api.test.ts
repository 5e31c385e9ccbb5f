import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditService } from '../app';
import { loadAuditConfig } from '../config';

const DAY = 24 * 60 * 60 * 1000;
const time = { offset: 0 };

describe('AUDIT_RETENTION_DAYS', () => {
  let platform: TestGateway;

  beforeAll(async () => {
    vi.stubEnv('AUDIT_RETENTION_DAYS', '30');
    vi.stubEnv('AUDIT_RETENTION_CHECK_MS', '100');
    platform = await startTestGateway({ services: [dataService, auditService], clock: () => Date.now() + time.offset });
    vi.unstubAllEnvs();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('removes the trail items older than the period at the next hourly occurrence and keeps the newer ones and the documents', async () => {
    let owner = await platform.signIn('owner');
    const projectId = await platform.seedProject({ ownerId: 'owner' });
    const base = `/api/projects/${projectId}`;
    expect((await platform.call('POST', `${base}/types`, { token: owner, body: { id: 'notes', name: 'Notes' } })).status).toBe(201);
    const old = (await platform.call('POST', `${base}/types/notes/data`, { token: owner, body: { title: 'old' } })).body.id as string;
    const trail = async () => ((await platform.call('GET', `${base}/audit-trail?limit=100`, { token: owner })).body.items as Array<{ entityId: string }>).map((item) => item.entityId);
    await vi.waitFor(async () => expect(await trail()).toContain(old), { timeout: 5_000, interval: 20 });

    time.offset = 20 * DAY;
    const newer = (await platform.call('POST', `${base}/types/notes/data`, { token: owner, body: { title: 'newer' } })).body.id as string;
    await vi.waitFor(async () => expect(await trail()).toContain(newer), { timeout: 5_000, interval: 20 });
    // Twenty days on, the job has run at least once (nothing was old enough).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await trail()).toEqual([newer, old, 'notes']);

    time.offset = 30 * DAY + 2 * 60 * 60 * 1000;
    owner = await platform.signIn('owner');
    await vi.waitFor(async () => expect(await trail()).toEqual([newer]), { timeout: 5_000, interval: 50 });
    // The documents and their histories stay.
    const kept = await platform.call('GET', `${base}/types/notes/data/${old}?includeChanges=true`, { token: owner });
    expect(kept.body).toMatchObject({ title: 'old', changes: [{ baseRevision: -1 }] });
  });
});

describe('loadAuditConfig', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('keeps the trail for ever unless AUDIT_RETENTION_DAYS is set, and refuses a period that is not a whole number of days', () => {
    expect(loadAuditConfig({})).toEqual({ retentionCheckMs: 60_000 });
    expect(loadAuditConfig({ AUDIT_RETENTION_DAYS: '400' }).retentionMs).toBe(400 * DAY);
    for (const value of ['0', '1.5', 'forever']) expect(() => loadAuditConfig({ AUDIT_RETENTION_DAYS: value }), value).toThrow(/AUDIT_RETENTION_DAYS/);
  });
});

import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createEmbeddedStore } from '@platform/storage';
import { afterEach, describe, expect, it } from 'vitest';

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
});

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedStore, type EmbeddedDocumentStore } from '@platform/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

let dataDir: string;
let store: EmbeddedDocumentStore;
let platform: IdentityTestPlatform;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'identity-backups-'));
  store = await createEmbeddedStore({ dataDir });
  platform = await startIdentityPlatform({ store });
});
afterAll(async () => {
  await platform?.close();
  await store?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('POST /api/admin/backups', () => {
  it('writes a copy of the store under DATA_DIR/backups for a platform owner, which opens as a store', async () => {
    const { user } = await platform.register('backed-up@example.org');
    const owner = await platform.signIn('root', { platformOwner: true });
    const response = await platform.call('POST', '/api/admin/backups', { token: owner });
    expect(response.status).toBe(201);
    expect(response.body.directory.startsWith(join(dataDir, 'backups'))).toBe(true);
    expect(response.body.records).toBeGreaterThan(0);

    const restored = await createEmbeddedStore({ dataDir: response.body.directory });
    expect((await restored.collection('users').find({})).map((record) => record.id)).toContain(user.id);
    await restored.close();
  });

  it('refuses anyone but a platform owner and writes nothing', async () => {
    const member = await platform.register('not-owner@example.org');
    const before = await readdir(join(dataDir, 'backups')).catch(() => []);
    expect((await platform.call('POST', '/api/admin/backups', { token: member.token })).status).toBe(403);
    expect((await platform.call('POST', '/api/admin/backups')).status).toBe(401);
    expect(await readdir(join(dataDir, 'backups')).catch(() => [])).toEqual(before);
  });

  it('answers 409 where the store is not the embedded one', async () => {
    const { backup: _backup, ...withoutBackup } = store;
    const other = await startIdentityPlatform({ store: withoutBackup });
    try {
      const owner = await other.signIn('root', { platformOwner: true });
      const response = await other.call('POST', '/api/admin/backups', { token: owner });
      expect(response.status).toBe(409);
      expect(response.body.code).toBe('IDENTITY_BACKUP_UNSUPPORTED');
    } finally {
      await other.close();
    }
  });
});

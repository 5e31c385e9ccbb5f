import { join } from 'node:path';
import { createLogger } from '@platform/kit';
import { describe, expect, it } from 'vitest';
import { platformsOnDisk } from '../testing/platforms-on-disk';

const PASSWORD = 'backup password 1';
const WRITERS = 4;

describe('online backup of the all-in-one, restored with DATA_DIR', () => {
  const platforms = platformsOnDisk('backup-restore-');
  const { call } = platforms;

  /** The all-in-one on DATA_DIR, its log lines kept (the first registration logs the owner-promotion path). */
  function start(dataDir: string, logs: Array<Record<string, unknown>>) {
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => logs.push(JSON.parse(line) as Record<string, unknown>) } });
    return platforms.start(dataDir, {}, { logger });
  }

  it('POST /api/admin/backups under a write load holds every write acknowledged before it began, each with its whole history', async () => {
    const root = await platforms.makeRoot();
    const logs: Array<Record<string, unknown>> = [];
    await start(join(root, 'data'), logs);
    const registered = await call('POST', '/api/auth/register', undefined, { email: 'owner@example.org', password: PASSWORD, displayName: 'Owner' });
    expect(registered.status).toBe(201);
    const token = registered.body.token as string;
    const promotionPath = logs.map((line) => line.promotionPath).find((path): path is string => typeof path === 'string');
    expect((await call('GET', promotionPath as string)).status).toBe(200);
    const project = await call('POST', '/api/projects', token, { name: 'Backed up' });
    expect(project.status).toBe(201);
    const data = `/api/projects/${project.body.id}/types/notes/data`;
    expect((await call('POST', `/api/projects/${project.body.id}/types`, token, { id: 'notes', name: 'Notes' })).status).toBe(201);

    // Each writer creates its document, then patches it until told to stop; an answer that
    // arrived before the backup request was sent is a write the backup must hold.
    let backupRequested = false;
    let stop = false;
    const acknowledgedBeforeBackup = new Map<string, number>();
    let acknowledged = 0;
    const writer = async (index: number): Promise<void> => {
      const id = `note-${index}`;
      const created = await call('POST', data, token, { id, title: 'revision 0' });
      expect(created.status).toBe(201);
      for (let revision = 0; ; revision += 1) {
        if (!backupRequested) acknowledgedBeforeBackup.set(id, revision);
        acknowledged += 1;
        if (stop) return;
        const patched = await call('PATCH', `${data}/${id}`, token, { modifier: { $set: { title: `revision ${revision + 1}` } }, baseRevision: revision });
        expect(patched.status).toBe(200);
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, index) => writer(index));
    await expect.poll(() => acknowledged, { timeout: 30_000 }).toBeGreaterThanOrEqual(WRITERS * 5);
    backupRequested = true;
    const backup = await call('POST', '/api/admin/backups', token);
    const acknowledgedAtBackup = acknowledged;
    await expect.poll(() => acknowledged, { timeout: 30_000 }).toBeGreaterThanOrEqual(acknowledgedAtBackup + WRITERS);
    stop = true;
    await Promise.all(writers);
    expect(backup.status).toBe(201);
    await platforms.stop();

    await start(backup.body.directory as string, []);
    const signedIn = await call('POST', '/api/auth/login', undefined, { email: 'owner@example.org', password: PASSWORD });
    expect(signedIn.status).toBe(200);
    expect(acknowledgedBeforeBackup.size).toBe(WRITERS);
    for (const [id, revision] of acknowledgedBeforeBackup) {
      const note = await call('GET', `${data}/${id}?includeChanges=true`, signedIn.body.token as string);
      expect(note.status).toBe(200);
      const { revision: kept, title, changes } = note.body as { revision: number; title: string; changes: Array<{ baseRevision: number }> };
      // At least what was acknowledged, and nothing torn: the document's title and history agree with its revision.
      expect({ id, atLeastAcknowledged: kept >= revision, title, history: changes.map((change) => change.baseRevision + 1) }).toEqual({
        id,
        atLeastAcknowledged: true,
        title: `revision ${kept}`,
        history: Array.from({ length: kept + 1 }, (_, index) => index),
      });
    }
  }, 120_000);
});

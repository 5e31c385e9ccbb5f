import { TRAIL_COLLECTION } from '@platform/audit';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { openSyncStream, registerAccount } from './testing/platform-http';
import { allInOneForTests } from './testing/platforms-on-disk';
import { succeeding } from './testing/populated-project';

/**
 * A deleted account across the services: its realtime streams end, the projects it owned are gone
 * for their members, and the audit trail of the projects it worked in shows its id, not its name,
 * to everyone (platform owners too) and in the stored items (audit's erasure on the announcement).
 */
const { platform, call } = allInOneForTests('account-deletion-');
const as = succeeding(call);
let ada: { token: string; userId: string };
let bea: { token: string; userId: string };

beforeAll(async () => {
  ada = await registerAccount(call, 'ada');
  bea = await registerAccount(call, 'bea');
  await as(ada, 'PUT', '/api/me/profile', { displayName: 'Ada Leaving' });
});

describe('deleting an account, all-in-one', () => {
  it('ends its streams, takes its own projects from their members and its name from the audit trail', async () => {
    const shared = (await as(bea, 'POST', '/api/projects', { name: 'Shared' })).id;
    await as(ada, 'POST', `/api/me/invitations/${(await as(bea, 'POST', `/api/projects/${shared}/members`, { userId: ada.userId })).id}/accept`);
    await as(bea, 'POST', `/api/projects/${shared}/types`, { id: 'notes', name: 'Notes' });
    await as(ada, 'POST', `/api/projects/${shared}/types/notes/data`, { id: 'by-ada', title: 'written by Ada' });
    const own = (await as(ada, 'POST', '/api/projects', { name: 'Ada own' })).id;
    await as(bea, 'POST', `/api/me/invitations/${(await as(ada, 'POST', `/api/projects/${own}/members`, { userId: bea.userId })).id}/accept`);

    const author = async () => (await as(bea, 'GET', `/api/projects/${shared}/audit-trail?limit=50`)).items.find((item: { entityId: string }) => item.entityId === 'by-ada');
    await vi.waitFor(async () => expect((await author())?.userDisplayName).toBe('Ada Leaving'), { timeout: 10_000 });
    const stream = await openSyncStream(platform().url, ada.token, shared);
    if (!stream) throw new Error('Ada could not open her realtime stream');

    expect((await call('DELETE', '/api/me', ada.token, { password: 'ada password 1' })).status).toBe(200);
    await vi.waitFor(() => expect(stream.ended()).toBe(true), { timeout: 5_000 });
    expect(await author()).toMatchObject({ userId: ada.userId, userDisplayName: ada.userId });
    const stored = async () => (await platform().context!.store.collection(TRAIL_COLLECTION).find({ projectId: shared, userId: ada.userId })).map((item) => item.userDisplayName);
    // The note she wrote, and her membership, which ended with the account (recorded with ids only).
    await vi.waitFor(async () => expect(await stored()).toEqual([ada.userId, ada.userId]), { timeout: 10_000 });
    const ended = (await as(bea, 'GET', `/api/projects/${shared}/audit-trail?typeId=project.members&changeType=deleted`)).items;
    expect(ended).toEqual([expect.objectContaining({ entityId: ada.userId, entityTitle: ada.userId, userId: ada.userId, userDisplayName: ada.userId })]);
    expect((await call('GET', `/api/projects/${own}/types`, bea.token)).status).toBe(404);
    expect((await as(bea, 'GET', `/api/projects/${shared}/types/notes/data/by-ada`)).title).toBe('written by Ada');
  });
});

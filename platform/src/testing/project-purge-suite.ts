import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isEmbeddedStore, STORE_LOG_FILE, type DocumentStore } from '@platform/storage';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerAccount } from './platform-http';
import { platformsOnDisk } from './platforms-on-disk';
import { populatedProject, succeeding } from './populated-project';

const DAY = 24 * 60 * 60 * 1000;

/** The services' outboxes of events about changes that are not documents (kit's EventOutbox). */
const EVENT_OUTBOXES = ['identity-outbox', 'actions-changes-outbox', 'publishing-domain-changes-outbox'];

/**
 * A deleted project whose restore period has ended is purged: identity's hourly job tells every
 * service, and each erases its share. Checked through the API where it shows (the hostname is free
 * again, the restore refused) and in the store for the rest; a live project beside it keeps all.
 * The project's own collections are dropped: on the embedded store, a snapshot holds no line of them.
 * Runs an all-in-one platform with `environment` on top (NATS_URL for the bus over JetStream).
 */
export function describeProjectPurge(title: string, environment: Record<string, string> = {}): void {
  describe(title, () => {
    const disk = platformsOnDisk('project-purge-');
    const { call } = disk;
    const as = succeeding(call);
    const time = { offset: 0 };
    let store: DocumentStore;
    let root: string;
    let owner: { token: string; userId: string };
    let member: { token: string; userId: string };

    /** How many records the store holds of the project, by where they live. */
    async function heldOf(projectId: string): Promise<Record<string, number>> {
      const count = (collection: string, filter: Record<string, unknown> = {}) => store.collection(collection).count(filter);
      const tenant = `tenant-${projectId}`;
      const ledgerKeys = (await store.collection('visitor-retention').find({ projectId, kind: 'visitor' })).map((entry) => entry.id);
      return {
        types: await count(`${tenant}-types`),
        notes: (await count(`${tenant}-notes`)) + (await count(`${tenant}-notes.history`)),
        guests: await count(`${tenant}-guests`),
        applications: (await count(`${tenant}-applications`)) + (await count(`${tenant}-applications.versions`)),
        domains: await count('project-domains', { projectId }),
        actions: (await count('actions', { projectId })) + (await count('action-runs', { projectId })),
        audit: (await count('audit-trail', { projectId })) + (await count('audit-trail-entities', { projectId })),
        visitors: (await count('visitor-retention', { projectId })) + (ledgerKeys.length ? await count('visitor-secrets', { id: { $in: ledgerKeys } }) : 0),
        outbox: await count('outbox-collections', { projectId }),
        memberships: await count('project-members', { projectId }),
        invitations: (await count('invitations', { projectId })) + (await count('email-invitations', { projectId })),
        waitingEvents: (await Promise.all(EVENT_OUTBOXES.map((outbox) => count(outbox, { 'data.projectId': projectId })))).reduce((sum, held) => sum + held, 0),
      };
    }

    /**
     * An event about the project in each outbox, as the bus left it when it was down; written in
     * the future so no sweep of this test's hour sends it: sent after the purge, it would put the
     * project's changes back into the trail its erasure emptied.
     */
    async function eventsWaiting(projectId: string): Promise<void> {
      for (const outbox of EVENT_OUTBOXES) {
        await store.collection(outbox).insertOne({ id: `waiting-${projectId}`, subject: `test.waiting.${projectId}`, msgId: `waiting-${projectId}`, data: { projectId }, writtenAt: Date.now() + 30 * DAY });
      }
    }

    beforeAll(async () => {
      // Each service reads its own variables from the process environment when the platform starts.
      vi.stubEnv('PUBLISHING_DOMAIN_VERIFICATION', 'off');
      vi.stubEnv('IDENTITY_PROJECT_RESTORE_DAYS', '1');
      vi.stubEnv('IDENTITY_PROJECT_PURGE_CHECK_MS', '100');
      root = await disk.makeRoot();
      const running = await disk.start(root, { LOG_LEVEL: 'silent', ...environment }, { clock: () => Date.now() + time.offset });
      store = running.context!.store;
      owner = await registerAccount(call, 'purging-owner');
      member = await registerAccount(call, 'purging-member');
    });
    afterAll(() => vi.unstubAllEnvs());

    it('erases everything of a project once its restore period ends, frees its hostname, and leaves other projects whole', { timeout: 60_000 }, async () => {
      const doomed = await populatedProject(call, { owner, member }, 'Doomed', 'purged.example.com');
      const kept = await populatedProject(call, { owner, member }, 'Kept', 'kept-purge.example.com');
      await eventsWaiting(doomed);
      await eventsWaiting(kept);
      const before = await heldOf(doomed);
      for (const [where, count] of Object.entries(before)) expect(count, where).toBeGreaterThan(0);
      const keptBefore = await heldOf(kept);

      expect((await call('DELETE', `/api/projects/${doomed}`, owner.token)).status).toBe(200);
      // Still restorable a moment before the day ends: nothing is erased yet (the audit trail has
      // grown by the deletion itself, and by changes of the setup it recorded meanwhile).
      time.offset = DAY - 60_000;
      await new Promise((resolve) => setTimeout(resolve, 500));
      const held = await heldOf(doomed);
      for (const [where, count] of Object.entries(before)) expect(held[where as keyof typeof held], where).toBeGreaterThanOrEqual(count);

      time.offset = DAY + 60 * 60_000;
      await vi.waitFor(async () => expect(Object.values(await heldOf(doomed)).every((count) => count === 0), JSON.stringify(await heldOf(doomed))).toBe(true), { timeout: 20_000, interval: 200 });
      // The other project whole: its trail can only have grown (it records the setup's last changes as they come).
      const keptAfter = await heldOf(kept);
      expect(keptAfter).toEqual({ ...keptBefore, audit: keptAfter.audit });
      expect(keptAfter.audit).toBeGreaterThanOrEqual(keptBefore.audit!);
      expect((await store.collection('projects').findById(doomed))?.purgedAt).toBeGreaterThan(0);
      if (!isEmbeddedStore(store)) throw new Error('the purge suite runs on the embedded store');
      const snapshot = await readFile(join((await store.backup(join(root, 'after-purge'))).directory, STORE_LOG_FILE), 'utf8');
      expect(snapshot.split("\n").filter((line) => line.includes(`"c":"tenant-${doomed}-`)).map((line) => line.slice(0, 160))).toEqual([]);
      expect(snapshot).toContain(`"c":"tenant-${kept}-notes"`);

      expect((await call('POST', `/api/projects/${doomed}/restore`, owner.token)).body).toMatchObject({ code: 'IDENTITY_PROJECT_RESTORE_EXPIRED' });
      const elsewhere = (await as(owner, 'POST', '/api/projects', { name: 'Newcomer' })).id;
      expect((await call('POST', `/api/projects/${elsewhere}/domains`, owner.token, { hostname: 'purged.example.com' })).status).toBe(201);
      expect((await call('POST', `/api/projects/${elsewhere}/domains`, owner.token, { hostname: 'kept-purge.example.com' })).status).toBe(409);
    });
  });
}

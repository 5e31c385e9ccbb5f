import { rebuildProjectTrail, TRAIL_COLLECTION } from '@platform/audit';
import type { BusMessage } from '@platform/bus';
import { documentEventSubject, type DocumentEvent } from '@platform/contracts';
import type { ServiceContext } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerAccount } from './platform-http';
import { platformsOnDisk } from './platforms-on-disk';
import { succeeding } from './populated-project';

const DAY = 24 * 60 * 60 * 1000;
/** What the erased visitors wrote, in any revision: none of it may stay in the trail. */
const PERSONAL = ['Jane', 'jane@private.example', 'private.example', 'Visitor-Personal', 'max@private.example'];

interface Item {
  entityId: string;
  revision: number;
  entityTitle: string;
  entityTypeId: string;
  changeDescription: string;
  userId: string;
}

/**
 * Visitor retention erases a visitor's fields and earlier history; the audit trail then keeps
 * nothing of them either: every item of the erased records (each revision) is titled with the
 * record's id, in the page and in the CSV export, while other documents keep their titles. A
 * redelivered event (the creation's, which carries the visitor's fields, and the erasure's) changes
 * nothing, and a rebuild gives the same trail. Runs an all-in-one platform with `environment` on
 * top (NATS_URL for the bus over JetStream), its clock moved past the visitors' retention period.
 */
export function describeRetentionInAuditTrail(title: string, environment: Record<string, string> = {}): void {
  describe(title, () => {
    const disk = platformsOnDisk('retention-audit-');
    const { call } = disk;
    const as = succeeding(call);
    const time = { offset: 0 };
    let context: ServiceContext;
    let owner: { token: string; userId: string };

    beforeAll(async () => {
      // Each service reads its own variables from the process environment when the platform starts.
      vi.stubEnv('VISITORS_RETENTION_CHECK_MS', '100');
      const root = await disk.makeRoot();
      const running = await disk.start(root, { LOG_LEVEL: 'silent', ...environment }, { clock: () => Date.now() + time.offset });
      context = running.context!;
      owner = await registerAccount(call, 'reception-owner');
    });
    afterAll(() => vi.unstubAllEnvs());

    it('keeps no title of an erased visitor or its events in any revision, page or export; a redelivery and a rebuild change nothing', async () => {
      const projectId = (await as(owner, 'POST', '/api/projects', { name: 'Reception' })).id as string;
      const p = `/api/projects/${projectId}`;
      const events: Array<BusMessage<DocumentEvent>> = [];
      const capture = await context.bus.subscribe<DocumentEvent>({ durable: `retention-audit-${projectId}`, filter: `platform.docs.${projectId}.>`, handler: async (message) => void events.push(message) });
      try {
        for (const id of ['guests', 'gevents', 'notes']) await as(owner, 'POST', `${p}/types`, { id, name: id });
        const deletionPeriods = [
          { duration: DAY, label: { en: '1 day' }, isDefault: true },
          { duration: 28 * DAY, label: { en: '28 days' } },
        ];
        const checkIn = { visitorTypeId: 'guests', visitorEventTypeId: 'gevents', deletionPeriods };
        await as(owner, 'POST', `${p}/applications`, { id: 'kiosk', title: { en: 'Kiosk' }, routes: [{ path: '/', widgetTree: { rootWidgetId: 'root', widgets: { root: { id: 'root', name: 'CheckIn', data: checkIn } } } }] });
        await as(owner, 'POST', `${p}/types/notes/data`, { id: 'kept-note', title: 'Kept Note' });

        const guests = `tenant-${projectId}-guests`;
        // Jane: checked in at the kiosk, changed, with a visit whose event names her; Max: an email only (his title).
        const jane = await as({}, 'POST', `${p}/visitors`, { collectionName: guests, data: { name: 'Jane Visitor-Personal', email: 'jane@private.example' } });
        await as(owner, 'PATCH', `${p}/visitors/${jane.id}`, { collectionName: guests, data: { email: 'jane.second@private.example' } });
        const visit = await as(owner, 'POST', `${p}/visitors/${jane.id}/events`, { collectionName: `tenant-${projectId}-gevents`, data: { eventType: 'checkIn', subject: 'Visit of Jane Visitor-Personal' } });
        const max = await as({}, 'POST', `${p}/visitors`, { collectionName: guests, data: { email: 'max@private.example' } });
        // Bob keeps 28 days: the run leaves him as he is.
        const bob = await as({}, 'POST', `${p}/visitors`, { collectionName: guests, data: { name: 'Bob Stays' }, deletionPeriod: 28 * DAY });

        const page = async (query = '') => (await as(owner, 'GET', `${p}/audit-trail?limit=200${query}`)).items as Item[];
        const titles = async () => Object.fromEntries((await page()).map((item) => [`${item.entityId}/${item.revision}`, item.entityTitle]));
        // Before the run the trail names them (so the checks below are not vacuous).
        await vi.waitFor(
          async () =>
            expect(await titles()).toMatchObject({
              [`${jane.id}/0`]: 'Jane Visitor-Personal',
              [`${jane.id}/1`]: 'Jane Visitor-Personal',
              [`${jane.id}/2`]: 'Jane Visitor-Personal',
              [`${visit.id}/0`]: 'Visit of Jane Visitor-Personal',
              [`${max.id}/0`]: 'max@private.example',
              [`${bob.id}/0`]: 'Bob Stays',
            }),
          { timeout: 10_000 },
        );

        // The retention period ends: the next check runs the job, which erases Jane, her visit and Max.
        time.offset += 2 * DAY;
        await vi.waitFor(async () => expect(await page('&userId=system:retention')).toHaveLength(3), { timeout: 15_000 });
        const trail = await page();
        for (const text of PERSONAL) expect(JSON.stringify(trail)).not.toContain(text);
        const erased = [jane.id, visit.id, max.id];
        const ofErased = trail.filter((item) => erased.includes(item.entityId));
        // Jane: created, changed, her visit recorded, erased; her visit and Max: created, erased.
        expect(ofErased.map((item) => `${item.entityId}/${item.revision}`).sort()).toEqual(
          [`${jane.id}/0`, `${jane.id}/1`, `${jane.id}/2`, `${jane.id}/3`, `${visit.id}/0`, `${visit.id}/1`, `${max.id}/0`, `${max.id}/1`].sort(),
        );
        for (const item of ofErased) expect(item.entityTitle).toBe(item.entityId);
        expect(await titles()).toMatchObject({ [`${bob.id}/0`]: 'Bob Stays', 'kept-note/0': 'Kept Note' });

        const exported = await call('GET', `${p}/audit-trail/export`, owner.token);
        expect(exported.status).toBe(200);
        for (const text of PERSONAL) expect(exported.text).not.toContain(text);
        for (const id of erased) expect(exported.text).toContain(id);
        expect(exported.text).toContain('Bob Stays');
        expect(exported.text).toContain('Kept Note');

        // Every event of Jane again, after her items were lost: first those before the erasure (the
        // creation's entity still carries her fields), then the erasure. Each item comes back titled
        // with her id, and the trail is what it was.
        const store = context.store.collection(TRAIL_COLLECTION);
        expect(await store.deleteMany({ projectId, entityId: jane.id })).toBe(4);
        const ofJane = events.filter((message) => message.data.entityId === jane.id).sort((a, b) => a.data.revision - b.data.revision);
        expect(ofJane.map((message) => message.data.revision)).toEqual([0, 1, 2, 3]);
        expect(JSON.stringify(ofJane[0]!.data.entity)).toContain('Jane Visitor-Personal');
        const redeliver = async ({ data }: BusMessage<DocumentEvent>) =>
          context.bus.publish(documentEventSubject(data.projectId, data.typeId, data.kind), data, { msgId: `redelivered:${data.collection}/${data.entityId}/${data.revision}` });
        for (const message of ofJane.slice(0, 3)) await redeliver(message);
        await vi.waitFor(async () => expect(await store.count({ projectId, entityId: jane.id })).toBe(3), { timeout: 10_000 });
        for (const text of PERSONAL) expect(JSON.stringify(await page())).not.toContain(text);
        await redeliver(ofJane[3]!);
        await vi.waitFor(async () => expect(await page()).toEqual(trail), { timeout: 10_000 });

        // A rebuild replays the histories (the erased records' hold only the erasure) and keeps their earlier items.
        await rebuildProjectTrail(context.store, projectId);
        expect(await page()).toEqual(trail);
      } finally {
        await capture.stop();
      }
    });
  });
}

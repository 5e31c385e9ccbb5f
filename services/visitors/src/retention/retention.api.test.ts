import { historyCollection } from '@platform/documents';
import { ClusterSchedule, createLogger, type ServiceContext } from '@platform/kit';
import { createMemoryKeyValue, type KeyValue } from '@platform/kv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, startCheckInPlatform, testConfig, type CheckInPlatform } from '../testing/visitors-test-platform';
import { visitorsDeps } from '../visitors-deps';
import { RETENTION_USER_ID } from './retention-job';
import { RETENTION_SCHEDULE } from './retention-schedule';

const logger = createLogger({ level: 'silent' });
let env: CheckInPlatform;

beforeAll(async () => {
  env = await startCheckInPlatform();
});
afterAll(async () => {
  await env?.platform.close();
});

/** One replica of the visitors service: its own collaborators on the shared store, bus and key-value store. */
function replica(context: ServiceContext) {
  const { retention } = visitorsDeps({ ...context }, testConfig());
  return new ClusterSchedule(retention, context.kv, context.clock, logger, { ...RETENTION_SCHEDULE, cron: '0 3 * * *', timezone: 'UTC' });
}

describe('retention', () => {
  it('at 03:00 one of two replicas erases every expired visitor with its events; the others are kept', async () => {
    const { projectId, visitors, visitorEvents } = await env.seedCheckIn({
      deletionPeriods: [
        { duration: DAY, label: { en: '1 day' } },
        { duration: 28 * DAY, label: { en: '28 days' }, isDefault: true },
      ],
    });
    const call = env.platform.call;
    const post = async (data: Record<string, unknown>, deletionPeriod?: number) =>
      (await call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data, ...(deletionPeriod ? { deletionPeriod } : {}) } })).body as { id: string; secret: string };
    const event = (v: { id: string; secret: string }, eventType: string) =>
      call('POST', `/api/projects/${projectId}/visitors/${v.id}/events`, { headers: { 'x-visitor-secret': v.secret }, body: { collectionName: visitorEvents, data: { eventType } } });

    const [first, second] = [replica(env.platform.context), replica(env.platform.context)];
    const ada = await post({ name: 'Ada', email: 'ada@example.org' }, DAY);
    await event(ada, 'checkIn');
    await event(ada, 'checkOut');
    const bob = await post({ name: 'Bob' });
    await event(bob, 'checkIn');
    const cy = await post({ name: 'Cy' }, DAY);
    await call('DELETE', `/api/projects/${projectId}/visitors/${cy.id}?collectionName=${visitors}`, { headers: { 'x-visitor-secret': cy.secret } });

    expect(new Date(first.nextRunAt).toISOString()).toBe('2024-05-02T03:00:00.000Z');
    expect(await first.tick()).toEqual({ status: 'not-due' });

    // The 2024-05-02 03:00 run finds nothing expired yet (Ada's day ends at 12:00).
    env.time.now = Date.UTC(2024, 4, 2, 3, 0, 30);
    const night1 = await Promise.all([first.tick(), second.tick()]);
    expect(night1.map((outcome) => outcome.status).sort()).toEqual(['ran', 'taken-by-another-replica']);
    expect(night1.find((outcome) => outcome.status === 'ran')).toMatchObject({ result: { visitors: 0, events: 0 } });

    env.time.now = Date.UTC(2024, 4, 3, 3, 0, 5);
    const night2 = await Promise.all([second.tick(), first.tick()]);
    expect(night2.map((outcome) => outcome.status).sort()).toEqual(['ran', 'taken-by-another-replica']);
    expect(night2.find((outcome) => outcome.status === 'ran')).toMatchObject({ scheduledAt: Date.UTC(2024, 4, 3, 3), result: { visitors: 2, events: 2 } });
    expect(await first.tick()).toEqual({ status: 'not-due' });

    // Ada: a tombstone without personal fields, whose history is only the erasure.
    const erased = await call('GET', `/api/projects/${projectId}/types/guests/data/${ada.id}?includeChanges=true`, { token: env.ownerToken });
    expect(Object.keys(erased.body).sort()).toEqual(['changes', 'createdAt', 'deletedAt', 'id', 'revision', 'updatedAt']);
    expect(erased.body.changes).toEqual([
      {
        userId: RETENTION_USER_ID,
        timestamp: expect.any(Number),
        baseRevision: 2,
        modifier: { $set: { deletedAt: Date.UTC(2024, 4, 3, 3, 0, 5) }, $unset: { name: '', email: '', deleteOn: '', deleteOnPreference: '', latestEventType: '', latestEventAt: '' } },
      },
    ]);
    expect(await env.platform.context.store.collection(historyCollection(visitors)).count({ entityId: ada.id })).toBe(1);
    expect(JSON.stringify(await env.platform.context.store.collection(historyCollection(visitors)).find({}))).not.toContain('ada@example.org');
    expect((await call('GET', `/api/projects/${projectId}/visitors/${ada.id}?collectionName=${visitors}`, { headers: { 'x-visitor-secret': ada.secret } })).status).toBe(404);

    // Cy was soft-deleted before: erased too, keeping the time of its deletion.
    const cyNow = (await call('GET', `/api/projects/${projectId}/types/guests/data/${cy.id}`, { token: env.ownerToken })).body;
    expect(cyNow).not.toHaveProperty('name');
    expect(cyNow.deletedAt).toBeLessThan(Date.UTC(2024, 4, 2));

    // Bob is kept whole, and so is his event; Ada's events are tombstones. (A pull reads up to the
    // clock, and this test's clock stands still while writes take unique stamps past it.)
    env.time.now += 1_000;
    const bobNow = (await call('GET', `/api/projects/${projectId}/visitors/${bob.id}?collectionName=${visitors}`, { headers: { 'x-visitor-secret': bob.secret } })).body;
    expect(bobNow).toMatchObject({ name: 'Bob', latestEventType: 'checkIn' });
    const eventDocs = (await call('GET', `/api/projects/${projectId}/types/guest-events/data?updatedAt=0`, { token: env.ownerToken })).body.items as Array<Record<string, unknown>>;
    expect(eventDocs.filter((doc) => doc.deletedAt === undefined).map((doc) => doc.visitorId)).toEqual([bob.id]);
    expect(eventDocs.filter((doc) => doc.deletedAt !== undefined).map((doc) => Object.keys(doc).sort())).toEqual([
      ['createdAt', 'deletedAt', 'id', 'revision', 'updatedAt'],
      ['createdAt', 'deletedAt', 'id', 'revision', 'updatedAt'],
    ]);

    // The audit trail gets a `deleted` event per erased record, by the retention job.
    await expect
      .poll(() => env.events.filter((e) => e.data.kind === 'deleted' && e.data.change.userId === RETENTION_USER_ID && e.data.projectId === projectId).length)
      .toBe(4);

    // Bob's 28 days run out: the night after, he goes too.
    env.time.now = Date.UTC(2024, 4, 30, 3, 1);
    const later = await first.tick();
    expect(later).toMatchObject({ status: 'ran', result: { visitors: 1, events: 1 } });
  });

  it('erases only records the visitors service created: a member\'s deleteOn or visitorId on other documents schedules nothing', async () => {
    const { projectId, visitors } = await env.seedCheckIn({ deletionPeriods: [{ duration: DAY, label: { en: '1 day' }, isDefault: true }], members: [{ userId: 'mallory', permissions: ['editor'] }] });
    const call = env.platform.call;
    const owner = env.ownerToken;
    const mallory = await env.platform.signIn('mallory');
    // The owner's documents, which members may update but not delete.
    const updateOnly = { update: { permission: `${projectId}::editor` } };
    const contract = await call('POST', `/api/projects/${projectId}/types/contacts/data`, { token: owner, body: { name: 'Contract A', access: updateOnly } });
    const invoice = await call('POST', `/api/projects/${projectId}/types/contacts/data`, { token: owner, body: { name: 'Invoice B', access: updateOnly } });
    expect([contract.status, invoice.status]).toEqual([201, 201]);
    // A CheckIn widget binds the owner's type as a visitor type and as a visitor-event type.
    const binding = await call('POST', `/api/projects/${projectId}/applications`, {
      token: owner,
      body: { id: 'trap', title: { en: 'Trap' }, routes: [{ path: '/', widgetTree: { rootWidgetId: 'a', widgets: { a: { id: 'a', name: 'CheckIn', data: { visitorTypeId: 'contacts', visitorEventTypeId: 'contacts' } }, b: { id: 'b', name: 'CheckIn', data: { visitorTypeId: 'guests', visitorEventTypeId: 'contacts' } } } } }] },
    });
    expect(binding.status).toBe(201);
    const decoy = (await call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: { name: 'Decoy' } } })).body as { id: string; secret: string };
    const decoySecret = { 'x-visitor-secret': decoy.secret };
    const genuine = (await call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: { name: 'Ada' } }, token: owner })).body as { id: string };
    // Kiosk calls through the trap binding: a visitor in the owner's type, and an event there.
    expect((await call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: `tenant-${projectId}-contacts`, data: { name: 'Trap' } } })).status).toBe(201);
    const trapEvent = await call('POST', `/api/projects/${projectId}/visitors/${decoy.id}/events`, { headers: decoySecret, body: { collectionName: `tenant-${projectId}-contacts`, data: { eventType: 'checkIn' } } });
    expect(trapEvent.status).toBe(201);
    // The member marks the owner's documents as expired, or as events of their own short-lived visitor,
    // and a genuine visitor as expired. (Whether the data routes accept these fields is their own
    // rule; here they are written as stored, the worst a member's write could leave behind.)
    const documents = env.platform.context.store;
    await call('PATCH', `/api/projects/${projectId}/types/contacts/data/${contract.body.id}`, { token: mallory, body: { baseRevision: 0, modifier: { $set: { deleteOn: 0 } } } });
    await documents.collection(`tenant-${projectId}-contacts`).updateOne({ id: contract.body.id }, { $set: { deleteOn: 0, deleteOnPreference: 1 } });
    await documents.collection(`tenant-${projectId}-contacts`).updateOne({ id: invoice.body.id }, { $set: { visitorId: decoy.id } });
    await documents.collection(visitors).updateOne({ id: genuine.id }, { $set: { deleteOn: 0 } });

    env.time.now += 2 * DAY;
    const result = await visitorsDeps(env.platform.context, testConfig()).retention.run();
    // The decoy and Ada (one day) go, with the event the decoy's kiosk recorded; the trap visitor keeps its 28 days.
    expect(result).toEqual({ visitors: 2, events: 1 });
    const ownerNow = await env.platform.signIn('owner');

    for (const id of [contract.body.id, invoice.body.id]) {
      const kept = await call('GET', `/api/projects/${projectId}/types/contacts/data/${id}?includeChanges=true`, { token: ownerNow });
      expect(kept.body).toMatchObject({ name: expect.stringMatching(/Contract A|Invoice B/) });
      expect(kept.body).not.toHaveProperty('deletedAt');
      expect(kept.body.changes[0]).toMatchObject({ userId: 'owner', baseRevision: -1 });
    }
    // The decoy and Ada were checked in through the kiosk route: erased when their own day ran out.
    for (const id of [decoy.id, genuine.id]) {
      const erased = (await call('GET', `/api/projects/${projectId}/types/guests/data/${id}`, { token: ownerNow })).body;
      expect(erased).toMatchObject({ id, deletedAt: expect.any(Number) });
      expect(erased).not.toHaveProperty('name');
    }
  });

  it('adopts visitors checked in before the ledger existed, with the events their own kiosk recorded, and nothing a member wrote', async () => {
    // Within the seeding session's 30 days (the tests before moved the clock past them).
    env.time.now = Date.UTC(2024, 4, 10, 12);
    const { projectId, visitors, visitorEvents } = await env.seedCheckIn({ deletionPeriods: [{ duration: DAY, label: { en: '1 day' }, isDefault: true }] });
    const call = env.platform.call;
    const store = env.platform.context.store;
    const owner = await env.platform.signIn('owner');
    const kiosk = (await call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: { name: 'Old Ada' } } })).body as { id: string; secret: string };
    const visit = await call('POST', `/api/projects/${projectId}/visitors/${kiosk.id}/events`, { headers: { 'x-visitor-secret': kiosk.secret }, body: { collectionName: visitorEvents, data: { eventType: 'checkIn' } } });
    expect(visit.status).toBe(201);
    // The owner's own documents: an "event" pointing at the visitor, and a guest the kiosk never issued a secret to.
    const claimed = await call('POST', `/api/projects/${projectId}/types/guest-events/data`, { token: owner, body: { eventType: 'note', visitorId: kiosk.id } });
    const unissued = await call('POST', `/api/projects/${projectId}/types/guests/data`, { token: owner, body: { name: 'Kept' } });
    expect([claimed.status, unissued.status]).toEqual([201, 201]);
    await store.collection(visitors).updateOne({ id: unissued.body.id }, { $set: { deleteOn: 0 } });
    // The state an installation had before the ledger: no entries, the old registry of visitor collections.
    await store.collection('visitor-retention').deleteMany({});
    await store.collection('visitor-collections').insertOne({ id: visitors, projectId, typeId: 'guests', eventScopes: [{ typeId: 'guest-events', collection: visitorEvents }] });

    env.time.now += 2 * DAY;
    expect(await visitorsDeps(env.platform.context, testConfig()).retention.run()).toEqual({ visitors: 1, events: 1 });
    const ownerNow = await env.platform.signIn('owner');
    const read = async (typeId: string, id: string) => (await call('GET', `/api/projects/${projectId}/types/${typeId}/data/${id}`, { token: ownerNow })).body;
    expect(await read('guests', kiosk.id)).not.toHaveProperty('name');
    expect(await read('guest-events', visit.body.id)).toHaveProperty('deletedAt');
    expect(await read('guest-events', claimed.body.id)).toMatchObject({ eventType: 'note', visitorId: kiosk.id });
    expect(await read('guests', unissued.body.id)).toMatchObject({ name: 'Kept' });
    expect(await store.collection('visitor-collections').count({})).toBe(0);
  });

  it('keeps the occurrence due while the lock cannot be taken, and runs once it can', async () => {
    const time = { now: Date.UTC(2024, 0, 1, 2, 59) };
    const inner = createMemoryKeyValue({ now: () => time.now });
    const state = { down: true };
    const kv: KeyValue = { ...inner, kind: 'memory', set: async (...args) => (state.down ? Promise.reject(new Error('connection refused')) : inner.set(...args)) };
    let runs = 0;
    const schedule = new ClusterSchedule({ run: async () => ((runs += 1), { visitors: 0, events: 0 }) }, kv, () => time.now, logger, { ...RETENTION_SCHEDULE, cron: '30 4 * * *', timezone: 'UTC' });
    expect(new Date(schedule.nextRunAt).toISOString()).toBe('2024-01-01T04:30:00.000Z');
    time.now = Date.UTC(2024, 0, 1, 4, 31);
    expect(await schedule.tick()).toEqual({ status: 'lock-unavailable' });
    state.down = false;
    expect(await schedule.tick()).toMatchObject({ status: 'ran', scheduledAt: Date.UTC(2024, 0, 1, 4, 30) });
    expect(new Date(schedule.nextRunAt).toISOString()).toBe('2024-01-02T04:30:00.000Z');
    expect(runs).toBe(1);
  });

  it('runs an occurrence whose lock it took when the answer was lost: the next check finds the lock its own', async () => {
    const time = { now: Date.UTC(2024, 0, 1, 4, 0) };
    const inner = createMemoryKeyValue({ now: () => time.now });
    const state = { answerLost: true };
    // The lock's SET ran in the store, and its answer timed out on the way back.
    const kv: KeyValue = {
      ...inner,
      kind: 'memory',
      set: async (...args) => {
        const written = await inner.set(...args);
        return state.answerLost ? Promise.reject(new Error('Command timed out')) : written;
      },
    };
    let runs = 0;
    const schedule = new ClusterSchedule({ run: async () => ((runs += 1), { visitors: 0, events: 0 }) }, kv, () => time.now, logger, { ...RETENTION_SCHEDULE, cron: '30 4 * * *', timezone: 'UTC' });
    time.now = Date.UTC(2024, 0, 1, 4, 31);
    expect(await schedule.tick()).toEqual({ status: 'lock-unavailable' });
    state.answerLost = false;
    expect(await schedule.tick()).toMatchObject({ status: 'ran', scheduledAt: Date.UTC(2024, 0, 1, 4, 30) });
    expect(runs).toBe(1);
  });
});

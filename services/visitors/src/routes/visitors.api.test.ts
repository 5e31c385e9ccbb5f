import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { DocumentStore } from '@platform/storage';
import { interleavedReads, temporaryEmbeddedStore, type InterleavedReads } from '@platform/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, startCheckInPlatform, testConfig, type CheckInPlatform } from '../testing/visitors-test-platform';

let env: CheckInPlatform;
beforeAll(async () => {
  env = await startCheckInPlatform();
});
afterAll(async () => {
  await env?.platform.close();
});

const call = (...args: Parameters<CheckInPlatform['platform']['call']>) => env.platform.call(...args);
const secretHeader = (secret: string) => ({ 'x-visitor-secret': secret });

async function checkIn(projectId: string, collectionName: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const response = await call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName, data, ...extra } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; secret: string };
}

describe('visitor lifecycle', () => {
  it('a kiosk checks a visitor in and out, changes and deletes it with the secret; every write is a document change with an event', async () => {
    const { projectId, visitors, visitorEvents } = await env.seedCheckIn();
    const start = env.time.now;
    const { id, secret } = await checkIn(projectId, visitors, { name: 'Ada', company: 'Analytical' });
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);

    const read = await call('GET', `/api/projects/${projectId}/visitors/${id}?collectionName=${visitors}`, { headers: secretHeader(secret) });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ id, name: 'Ada', company: 'Analytical', revision: 0, createdAt: expect.any(Number), updatedAt: read.body.createdAt, deleteOn: start + 28 * DAY, deleteOnPreference: 28 * DAY });
    expect(read.body.createdAt).toBeGreaterThanOrEqual(start);

    env.time.now += 1_000;
    const checkedIn = await call('POST', `/api/projects/${projectId}/visitors/${id}/events`, { headers: secretHeader(secret), body: { collectionName: visitorEvents, data: { eventType: 'checkIn', note: 'front door' } } });
    expect(checkedIn.status).toBe(201);
    const afterIn = (await call('GET', `/api/projects/${projectId}/visitors/${id}?collectionName=${visitors}`, { headers: secretHeader(secret) })).body;
    expect(afterIn).toMatchObject({ latestEventType: 'checkIn', latestEventAt: env.time.now, deleteOn: env.time.now + 28 * DAY, revision: 1 });

    env.time.now += 60_000;
    const checkedOut = await call('POST', `/api/projects/${projectId}/visitors/${id}/events`, { headers: secretHeader(secret), body: { collectionName: visitorEvents, data: { eventType: 'checkOut' } } });
    expect(checkedOut.status).toBe(201);

    const patched = await call('PATCH', `/api/projects/${projectId}/visitors/${id}`, { headers: secretHeader(secret), body: { collectionName: visitors, data: { company: 'Babbage & Co' } } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Ada', company: 'Babbage & Co', latestEventType: 'checkOut', revision: 3 });

    // The event records are documents of their type; members read them through the data routes.
    const eventDocs = await call('GET', `/api/projects/${projectId}/types/guest-events/data`, { token: env.ownerToken });
    expect(eventDocs.body.items.map((e: Record<string, unknown>) => [e.eventType, e.visitorId, e.note])).toEqual([
      ['checkIn', id, 'front door'],
      ['checkOut', id, undefined],
    ]);
    const history = await call('GET', `/api/projects/${projectId}/types/guests/data/${id}?includeChanges=true`, { token: env.ownerToken });
    expect(history.body.changes.map((c: { userId: string }) => c.userId)).toEqual(['anonymous', `visitor:${id}`, `visitor:${id}`, `visitor:${id}`]);

    const removed = await call('DELETE', `/api/projects/${projectId}/visitors/${id}?collectionName=${visitors}`, { headers: secretHeader(secret) });
    expect(removed.status).toBe(200);
    expect(removed.body.deletedAt).toBe(env.time.now);
    expect((await call('PATCH', `/api/projects/${projectId}/visitors/${id}`, { headers: secretHeader(secret), body: { collectionName: visitors, data: { name: 'x' } } })).status).toBe(404);

    await expect.poll(() => env.events.filter((e) => e.data.entityId === id).map((e) => e.data.kind)).toEqual(['created', 'updated', 'updated', 'updated', 'deleted']);
    expect(env.events.filter((e) => e.data.collection === visitorEvents && e.data.entity.visitorId === id)).toHaveLength(2);
  });

  it('without the secret, with a wrong one or another visitor\'s, a public caller learns nothing (404); a member reads it', async () => {
    const { projectId, visitors, visitorEvents } = await env.seedCheckIn();
    const ada = await checkIn(projectId, visitors, { name: 'Ada' });
    const bob = await checkIn(projectId, visitors, { name: 'Bob' });
    const path = `/api/projects/${projectId}/visitors/${ada.id}`;
    for (const headers of [{}, secretHeader('wrong'), secretHeader(bob.secret)]) {
      expect((await call('GET', `${path}?collectionName=${visitors}`, { headers })).status).toBe(404);
      expect((await call('PATCH', path, { headers, body: { collectionName: visitors, data: { name: 'Eve' } } })).status).toBe(404);
      expect((await call('POST', `${path}/events`, { headers, body: { collectionName: visitorEvents, data: { eventType: 'checkIn' } } })).status).toBe(404);
      expect((await call('DELETE', `${path}?collectionName=${visitors}`, { headers })).status).toBe(404);
    }
    const stranger = await env.platform.signIn('stranger');
    expect((await call('GET', `${path}?collectionName=${visitors}`, { token: stranger })).status).toBe(404);
    const member = await call('GET', `${path}?collectionName=${visitors}`, { token: env.ownerToken });
    expect(member.body).toMatchObject({ id: ada.id, name: 'Ada', revision: 0 });
    expect(JSON.stringify(member.body)).not.toMatch(/secret|hash|_outbox/i);
  });

  it('a member is held to RLS: without the type\'s read permission the visitor is not found', async () => {
    const { projectId, visitors } = await env.seedCheckIn({
      visitorDefaultAccess: (projectId) => ({ read: { permission: `${projectId}::reception` }, update: { permission: `${projectId}::reception` }, delete: { permission: `${projectId}::reception` } }),
      members: [{ userId: 'receptionist', permissions: ['reception'] }, { userId: 'intern' }],
    });
    const { id } = await checkIn(projectId, visitors, { name: 'Ada' });
    const path = `/api/projects/${projectId}/visitors/${id}?collectionName=${visitors}`;
    expect((await call('GET', path, { token: await env.platform.signIn('receptionist') })).status).toBe(200);
    expect((await call('GET', path, { token: await env.platform.signIn('intern') })).status).toBe(404);
  });

  it('a member the visitor type\'s read rule excludes finds it as unknown, for reads and writes; secret holders go on', async () => {
    const { projectId, visitors, visitorEvents } = await env.seedCheckIn({ members: [{ userId: 'receptionist', permissions: ['reception'] }, { userId: 'intern' }] });
    const guarded = await call('PATCH', `/api/projects/${projectId}/types/guests`, { token: env.ownerToken, body: { baseRevision: 0, modifier: { $set: { access: { read: { permission: `${projectId}::reception` } } } } } });
    expect(guarded.status, JSON.stringify(guarded.body)).toBe(200);
    const { id, secret } = await checkIn(projectId, visitors, { name: 'Ada' });
    const intern = await env.platform.signIn('intern');
    const receptionist = await env.platform.signIn('receptionist');
    const path = `/api/projects/${projectId}/visitors/${id}`;
    // The data routes hide the type from the intern.
    expect((await call('GET', `/api/projects/${projectId}/types/guests/data/${id}`, { token: intern })).body.code).toBe('DATA_TYPE_NOT_FOUND');

    const unknown = await call('GET', `${path}?collectionName=tenant-${projectId}-nothing`, { token: intern });
    expect(unknown.status).toBe(400);
    const answers = [
      await call('GET', `${path}?collectionName=${visitors}`, { token: intern }),
      await call('PATCH', path, { token: intern, body: { collectionName: visitors, data: { name: 'Eve' } } }),
      await call('DELETE', `${path}?collectionName=${visitors}`, { token: intern }),
      await call('POST', `/api/projects/${projectId}/visitors`, { token: intern, body: { collectionName: visitors, data: { name: 'Mallory' } } }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(unknown.status);
      expect(answer.body).toMatchObject({ code: 'VISITORS_INVALID_COLLECTION', details: unknown.body.details });
      expect(JSON.stringify(answer.body)).not.toContain('Ada');
    }
    // An event for a visitor of a type the intern may not read: the visitor is not found.
    const event = await call('POST', `${path}/events`, { token: intern, body: { collectionName: visitorEvents, data: { eventType: 'checkIn' } } });
    expect(event.status).toBe(404);
    expect(event.body.code).toBe('VISITORS_NOT_FOUND');
    expect((await call('GET', `/api/projects/${projectId}/types/guest-events/data`, { token: env.ownerToken })).body.items).toEqual([]);

    // Those the rule names, and the visitor's secret holder, go on as before.
    expect((await call('GET', `${path}?collectionName=${visitors}`, { token: receptionist })).body).toMatchObject({ id, name: 'Ada', revision: 0 });
    expect((await call('PATCH', path, { token: receptionist, body: { collectionName: visitors, data: { company: 'Analytical' } } })).status).toBe(200);
    expect((await call('POST', `${path}/events`, { token: receptionist, body: { collectionName: visitorEvents, data: { eventType: 'checkIn' } } })).status).toBe(201);
    expect((await call('GET', `${path}?collectionName=${visitors}`, { headers: secretHeader(secret) })).body).toMatchObject({ name: 'Ada', company: 'Analytical', latestEventType: 'checkIn' });
    expect((await call('PATCH', path, { headers: secretHeader(secret), body: { collectionName: visitors, data: { name: 'Ada L.' } } })).status).toBe(200);
  });

  it('answers 404 for a project that does not exist', async () => {
    const response = await call('POST', '/api/projects/nope/visitors', { body: { collectionName: 'tenant-nope-guests', data: {} } });
    expect(response.status).toBe(404);
  });
});

describe('internal fields are set by the server only', () => {
  it('ignores latestEventType, latestEventAt, deleteOn and deleteOnPreference from clients on create, change and events', async () => {
    const { projectId, visitors, visitorEvents } = await env.seedCheckIn();
    const forged = { latestEventType: 'checkOut', latestEventAt: 1, deleteOn: 9_999_999_999_999, deleteOnPreference: 9_999_999 };
    const { id, secret } = await checkIn(projectId, visitors, { name: 'Ada', ...forged });
    const path = `/api/projects/${projectId}/visitors/${id}`;
    const created = (await call('GET', `${path}?collectionName=${visitors}`, { headers: secretHeader(secret) })).body;
    expect(created).toEqual({ id, name: 'Ada', revision: 0, createdAt: expect.any(Number), updatedAt: created.createdAt, deleteOn: env.time.now + 28 * DAY, deleteOnPreference: 28 * DAY });

    const patched = await call('PATCH', path, { headers: secretHeader(secret), body: { collectionName: visitors, data: forged } });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual(created);

    await call('POST', `${path}/events`, { headers: secretHeader(secret), body: { collectionName: visitorEvents, data: { eventType: 'checkIn', visitorId: 'someone-else', timestamp: 1 } } });
    const [event] = (await call('GET', `/api/projects/${projectId}/types/guest-events/data`, { token: env.ownerToken })).body.items;
    expect(event).toMatchObject({ visitorId: id, timestamp: env.time.now, eventType: 'checkIn' });
  });

  it('deleteOnPreference takes the deletion period the visitor chose, or the widget\'s default', async () => {
    const periods = [
      { duration: DAY, label: { en: '1 day' } },
      { duration: 7 * DAY, label: { en: '1 week' }, isDefault: true },
    ];
    const { projectId, visitors } = await env.seedCheckIn({ deletionPeriods: periods });
    const byDefault = await checkIn(projectId, visitors, { name: 'A' });
    const chosen = await checkIn(projectId, visitors, { name: 'B' }, { deletionPeriod: DAY });
    const read = async (v: { id: string; secret: string }) => (await call('GET', `/api/projects/${projectId}/visitors/${v.id}?collectionName=${visitors}`, { headers: secretHeader(v.secret) })).body;
    expect(await read(byDefault)).toMatchObject({ deleteOnPreference: 7 * DAY, deleteOn: env.time.now + 7 * DAY });
    expect(await read(chosen)).toMatchObject({ deleteOnPreference: DAY, deleteOn: env.time.now + DAY });

    const changed = await call('PATCH', `/api/projects/${projectId}/visitors/${byDefault.id}`, { headers: secretHeader(byDefault.secret), body: { collectionName: visitors, data: {}, deletionPeriod: DAY } });
    expect(changed.body).toMatchObject({ deleteOnPreference: DAY, deleteOn: env.time.now + DAY });

    const before = (await call('GET', `/api/projects/${projectId}/types/guests/data`, { token: env.ownerToken })).body.items.length;
    const refused = await call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: { name: 'C' }, deletionPeriod: 3 * DAY } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'VISITORS_INVALID_DELETION_PERIOD', details: { field: 'deletionPeriod', offered: [DAY, 7 * DAY] } });
    // A misspelt key is refused by name, not dropped for the default period.
    const misspelt = await call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: { name: 'D' }, deletionperiod: DAY } });
    expect(misspelt.status).toBe(400);
    expect(misspelt.body).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ field: 'body', message: 'Unrecognized key: "deletionperiod"' }] } });
    const misspeltChange = await call('PATCH', `/api/projects/${projectId}/visitors/${chosen.id}`, { headers: secretHeader(chosen.secret), body: { collectionName: visitors, data: {}, deletion_period: 7 * DAY } });
    expect(misspeltChange.status).toBe(400);
    expect(await read(chosen)).toMatchObject({ deleteOnPreference: DAY, deleteOn: env.time.now + DAY });
    expect((await call('GET', `/api/projects/${projectId}/types/guests/data`, { token: env.ownerToken })).body.items.length).toBe(before);
  });
});

describe('a CheckIn widget added a moment ago', () => {
  /** Adds an application whose CheckIn widget names `checkIn`'s types (the test clock stands still, so the project's cached setup stays fresh). */
  const addKiosk = async (projectId: string, id: string, checkIn: Record<string, unknown>) => {
    const routes = [{ path: '/', widgetTree: { rootWidgetId: 'door', widgets: { door: { id: 'door', name: 'CheckIn', data: checkIn } } } }];
    expect((await call('POST', `/api/projects/${projectId}/applications`, { token: env.ownerToken, body: { id, title: { en: id }, routes } })).status).toBe(201);
  };

  it('takes its deletion periods and its types at once, although the project\'s setup was read just before', async () => {
    const { projectId, visitors } = await env.seedCheckIn({ deletionPeriods: [{ duration: DAY, label: { en: '1 day' }, isDefault: true }] });
    await checkIn(projectId, visitors, { name: 'Before' });
    await addKiosk(projectId, 'arrivals', { visitorTypeId: 'guests' });
    const arrival = await checkIn(projectId, visitors, { name: 'Ari' }, { deletionPeriod: 28 * DAY });
    const read = await call('GET', `/api/projects/${projectId}/visitors/${arrival.id}?collectionName=${visitors}`, { headers: secretHeader(arrival.secret) });
    expect(read.body).toMatchObject({ deleteOnPreference: 28 * DAY });

    // The cached setup is read again once per period for what it lacks: the next kiosk's types are found after it.
    env.time.now += 2_000;
    await call('POST', `/api/projects/${projectId}/types`, { token: env.ownerToken, body: { id: 'walk-ins', name: 'Walk-ins' } });
    await call('POST', `/api/projects/${projectId}/types`, { token: env.ownerToken, body: { id: 'walk-in-events', name: 'Walk-in events' } });
    await addKiosk(projectId, 'side-door', { visitorTypeId: 'walk-ins', visitorEventTypeId: 'walk-in-events' });
    const walkIn = await checkIn(projectId, `tenant-${projectId}-walk-ins`, { name: 'Wes' });
    const event = await call('POST', `/api/projects/${projectId}/visitors/${walkIn.id}/events`, { headers: secretHeader(walkIn.secret), body: { collectionName: `tenant-${projectId}-walk-in-events`, data: { eventType: 'checkIn' } } });
    expect(event.status, JSON.stringify(event.body)).toBe(201);

    // A period that no widget offers is still refused, on the fresh read, and nothing is written.
    const refused = await call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: { name: 'Nope' }, deletionPeriod: 3 * DAY } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'VISITORS_INVALID_DELETION_PERIOD', details: { field: 'deletionPeriod', offered: [28 * DAY, DAY] } });
    const names = (await call('GET', `/api/projects/${projectId}/types/guests/data`, { token: env.ownerToken })).body.items.map((item: { name: string }) => item.name);
    expect(names.sort()).toEqual(['Ari', 'Before']);
  });
});

describe('bad input is refused with 400 naming the field, and changes nothing', () => {
  it.each([
    ['an unknown type', (s: Names) => ({ collectionName: `tenant-${s.projectId}-nothing`, data: {} }), 'VISITORS_INVALID_COLLECTION', 'collectionName'],
    ['a type no CheckIn widget names', (s: Names) => ({ collectionName: s.contacts, data: {} }), 'VISITORS_INVALID_COLLECTION', 'collectionName'],
    ['the visitor-event type', (s: Names) => ({ collectionName: s.visitorEvents, data: {} }), 'VISITORS_INVALID_COLLECTION', 'collectionName'],
    ['another project\'s collection', (_s: Names) => ({ collectionName: 'tenant-other-guests', data: {} }), 'VISITORS_INVALID_COLLECTION', 'collectionName'],
    ['a bare type id', (_s: Names) => ({ collectionName: 'guests', data: {} }), 'VISITORS_INVALID_COLLECTION', 'collectionName'],
    ['no collectionName', (_s: Names) => ({ data: {} }), 'VALIDATION_FAILED', 'body.collectionName'],
    ['data that is not an object', (s: Names) => ({ collectionName: s.visitors, data: 'Ada' }), 'VALIDATION_FAILED', 'body.data'],
    ['an internal _ field', (s: Names) => ({ collectionName: s.visitors, data: { _secret: 1 } }), 'VISITORS_INVALID_DATA', 'data._secret'],
    ['a system field', (s: Names) => ({ collectionName: s.visitors, data: { revision: 5 } }), 'VISITORS_INVALID_DATA', 'data.revision'],
    ['access', (s: Names) => ({ collectionName: s.visitors, data: { access: {} } }), 'VISITORS_INVALID_DATA', 'data.access'],
    ['an operator key in a value', (s: Names) => ({ collectionName: s.visitors, data: { name: { $where: 'x' } } }), 'VISITORS_INVALID_DATA', 'data.name'],
    ["a field name holding '.'", (s: Names) => ({ collectionName: s.visitors, data: { name: 'Ada', 'badge.color': 'red' } }), 'VISITORS_INVALID_DATA', 'data.badge.color'],
    ['a value against the type schema', (s: Names) => ({ collectionName: s.visitors, data: { name: 42 } }), 'VISITORS_INVALID_DATA', 'data.name'],
    ['a missing required field', (s: Names) => ({ collectionName: s.visitors, data: { company: 'x' } }), 'VISITORS_INVALID_DATA', 'data.name'],
  ])('POST with %s', async (_case, body, code, field) => {
    const names = await seeded();
    const response = await call('POST', `/api/projects/${names.projectId}/visitors`, { body: body(names) });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(code);
    expect(response.body.error).toContain(field);
    expect((await call('GET', `/api/projects/${names.projectId}/types/guests/data`, { token: env.ownerToken })).body.items).toEqual([]);
  });

  it('names the schema rule a refused value breaks, so a kiosk can say it in its own language', async () => {
    const names = await seeded();
    const wrongType = await call('POST', `/api/projects/${names.projectId}/visitors`, { body: { collectionName: names.visitors, data: { name: 42 } } });
    expect(wrongType.body.details.problems).toEqual([{ field: 'data.name', message: 'must be string', keyword: 'type', params: { type: 'string' } }]);
    const missing = await call('POST', `/api/projects/${names.projectId}/visitors`, { body: { collectionName: names.visitors, data: { company: 'x' } } });
    expect(missing.body.details.problems).toEqual([{ field: 'data.name', message: 'is required', keyword: 'required', params: { missingProperty: 'name' } }]);
  });

  it.each([
    ['the visitor type', (s: Names) => s.visitors, 'VISITORS_INVALID_COLLECTION'],
    ['an event without eventType', (s: Names) => s.visitorEvents, 'VALIDATION_FAILED', {}],
    ['an unknown eventType', (s: Names) => s.visitorEvents, 'VALIDATION_FAILED', { eventType: 'lunch' }],
  ])('events with %s', async (_case, collection, code, data: Record<string, unknown> = { eventType: 'checkIn' }) => {
    const names = await seeded();
    const { id, secret } = await checkIn(names.projectId, names.visitors, { name: 'Ada' });
    const response = await call('POST', `/api/projects/${names.projectId}/visitors/${id}/events`, { headers: secretHeader(secret), body: { collectionName: collection(names), data } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(code);
    expect((await call('GET', `/api/projects/${names.projectId}/visitors/${id}?collectionName=${names.visitors}`, { headers: secretHeader(secret) })).body.revision).toBe(0);
  });
});

describe('the data service\'s document limits hold for visitors and their events', () => {
  const visitorsOf = async (projectId: string) => (await call('GET', `/api/projects/${projectId}/types/guests/data`, { token: env.ownerToken })).body.items as Array<Record<string, unknown>>;
  const nested = (levels: number): Record<string, unknown> => (levels === 0 ? {} : { a: nested(levels - 1) });

  it('an anonymous check-in with an array past the limit or nesting too deep is refused and nothing is stored', async () => {
    const { projectId, visitors } = await env.seedCheckIn();
    const long = await call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: { name: 'Ada', tags: Array.from({ length: 50_000 }, () => 1) } } });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'VISITORS_INVALID_DATA', details: { problems: [{ field: 'data.tags', code: 'DATA_ARRAY_TOO_LONG', limit: 10_000, length: 50_000 }] } });
    expect(long.body.error).toContain('data.tags');
    // Deep nesting: the data service's rules for new fields refuse it before the limits are looked at.
    const deep = await call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: { a: nested(61) } } });
    expect(deep.status).toBe(400);
    expect(deep.body.code).toBe('VISITORS_INVALID_DATA');
    expect(await visitorsOf(projectId)).toEqual([]);
  });

  it('a secret holder cannot grow a visitor past the document size, one PATCH after another or all at once; the owner still edits it', async () => {
    const { projectId, visitors } = await env.seedCheckIn();
    const big = 'x'.repeat(250_000);
    const { id, secret } = await checkIn(projectId, visitors, { name: 'Ada' });
    const patch = (data: Record<string, unknown>, auth: { headers?: Record<string, string>; token?: string } = { headers: secretHeader(secret) }) =>
      call('PATCH', `/api/projects/${projectId}/visitors/${id}`, { ...auth, body: { collectionName: visitors, data } });
    for (let i = 0; i < 4; i += 1) expect((await patch({ [`f${i}`]: big })).status).toBe(200);
    const fifth = await patch({ f4: big });
    expect(fifth.status).toBe(400);
    expect(fifth.body).toMatchObject({ code: 'VISITORS_INVALID_DATA', details: { problems: [{ field: 'data.f4', code: 'DATA_DOCUMENT_TOO_LARGE', limit: 1024 * 1024 }] } });
    const [stored] = await visitorsOf(projectId);
    expect(stored).not.toHaveProperty('f4');
    expect(Buffer.byteLength(JSON.stringify(stored))).toBeLessThan(1024 * 1024);
    expect((await patch({ name: 'Ada L.' }, { token: env.ownerToken })).status).toBe(200);

    // Concurrent PATCHes each checked against the same revision must not add up past the limit.
    const other = await checkIn(projectId, visitors, { name: 'Bob' });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => call('PATCH', `/api/projects/${projectId}/visitors/${other.id}`, { headers: secretHeader(other.secret), body: { collectionName: visitors, data: { [`g${i}`]: big } } })),
    );
    expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(4);
    const bob = (await visitorsOf(projectId)).find((visitor) => visitor.id === other.id);
    expect(Buffer.byteLength(JSON.stringify(bob))).toBeLessThan(1024 * 1024);
  });

  it('an event with an array past the limit is refused; no event is stored and the visitor is unchanged', async () => {
    const { projectId, visitors, visitorEvents } = await env.seedCheckIn();
    const { id, secret } = await checkIn(projectId, visitors, { name: 'Ada' });
    const refused = await call('POST', `/api/projects/${projectId}/visitors/${id}/events`, { headers: secretHeader(secret), body: { collectionName: visitorEvents, data: { eventType: 'checkIn', tags: Array.from({ length: 50_000 }, () => 1) } } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'VISITORS_INVALID_DATA', details: { problems: [{ field: 'data.tags', code: 'DATA_ARRAY_TOO_LONG' }] } });
    expect((await call('GET', `/api/projects/${projectId}/types/guest-events/data`, { token: env.ownerToken })).body.items).toEqual([]);
    expect((await call('GET', `/api/projects/${projectId}/visitors/${id}?collectionName=${visitors}`, { headers: secretHeader(secret) })).body.revision).toBe(0);
  });
});

describe('schema validation has the data service\'s time budget', () => {
  it('a record whose validation takes longer than the budget is refused with 422 naming the field, and nothing is stored', async () => {
    // Each entry differs from the others only at its first element, which a deep comparison reaches
    // last; every element of the list is the last entry: valid, after 249 long comparisons each.
    const entry = (first: number) => [first, ...Array.from({ length: 249 }, () => 1)];
    const { projectId, visitors } = await env.seedCheckIn({
      visitorSchema: { type: 'object', properties: { name: { type: 'string' }, list: { type: 'array', items: { enum: Array.from({ length: 250 }, (_, index) => entry(index + 2)) } } } },
    });
    const slow = await call('POST', `/api/projects/${projectId}/visitors`, { token: env.ownerToken, body: { collectionName: visitors, data: { name: 'Ada', list: Array.from({ length: 400 }, () => entry(251)) } } });
    expect(slow.status, JSON.stringify(slow.body).slice(0, 300)).toBe(422);
    expect(slow.body).toMatchObject({ code: 'VISITORS_VALIDATION_TOO_SLOW', details: { field: expect.stringMatching(/^data\.list/), budgetMs: 50, code: 'DATA_VALIDATION_TOO_SLOW' } });
    expect((await call('GET', `/api/projects/${projectId}/types/guests/data`, { token: env.ownerToken })).body.items).toEqual([]);
    const quick = await call('POST', `/api/projects/${projectId}/visitors`, { token: env.ownerToken, body: { collectionName: visitors, data: { name: 'Ada', list: [entry(2)] } } });
    expect(quick.status).toBe(201);
  });
});

describe('localOnly types take no writes, as on the data routes', () => {
  it('check-in, change, delete and events answer 409 DATA_LOCAL_ONLY_TYPE and write nothing; a secret holder still reads', async () => {
    const { projectId, visitors, visitorEvents } = await env.seedCheckIn();
    const { id, secret } = await checkIn(projectId, visitors, { name: 'Ada' });
    const setSyncType = async (typeId: string, syncType: string) => {
      const type = (await call('GET', `/api/projects/${projectId}/types/${typeId}`, { token: env.ownerToken })).body;
      const changed = await call('PATCH', `/api/projects/${projectId}/types/${typeId}`, { token: env.ownerToken, body: { baseRevision: type.revision, modifier: { $set: { syncType } } } });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    };
    await setSyncType('guests', 'localOnly');
    const path = `/api/projects/${projectId}/visitors/${id}`;
    const viaData = await call('POST', `/api/projects/${projectId}/types/guests/data`, { token: env.ownerToken, body: { name: 'Data' } });
    expect(viaData.status).toBe(409);
    expect(viaData.body.code).toBe('DATA_LOCAL_ONLY_TYPE');
    const refused = [
      await call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: { name: 'Bob' } } }),
      await call('POST', `/api/projects/${projectId}/visitors`, { token: env.ownerToken, body: { collectionName: visitors, data: { name: 'Bob' } } }),
      await call('PATCH', path, { headers: secretHeader(secret), body: { collectionName: visitors, data: { name: 'Eve' } } }),
      await call('DELETE', `${path}?collectionName=${visitors}`, { headers: secretHeader(secret) }),
      await call('POST', `${path}/events`, { headers: secretHeader(secret), body: { collectionName: visitorEvents, data: { eventType: 'checkIn' } } }),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe(viaData.body.code);
    }
    const read = await call('GET', `${path}?collectionName=${visitors}`, { headers: secretHeader(secret) });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ name: 'Ada', revision: 0 });
    expect(read.body).not.toHaveProperty('deletedAt');
    expect((await call('GET', `/api/projects/${projectId}/types/guests/data`, { token: env.ownerToken })).body.items).toHaveLength(1);

    // A localOnly event type: the event is refused, the visitor unchanged.
    await setSyncType('guests', 'remote');
    await setSyncType('guest-events', 'localOnly');
    const event = await call('POST', `${path}/events`, { headers: secretHeader(secret), body: { collectionName: visitorEvents, data: { eventType: 'checkIn' } } });
    expect(event.status).toBe(409);
    expect(event.body.code).toBe('DATA_LOCAL_ONLY_TYPE');
    expect((await call('GET', `/api/projects/${projectId}/types/guest-events/data`, { token: env.ownerToken })).body.items).toEqual([]);
    expect((await call('GET', `${path}?collectionName=${visitors}`, { headers: secretHeader(secret) })).body.revision).toBe(0);
  });
});

describe('an event and its visitor\'s update land together or not at all', () => {
  it('under concurrent events and PATCHes, every 201 has its event, no refused event is stored, and the visitor names the latest', async () => {
    const { projectId, visitors, visitorEvents } = await env.seedCheckIn();
    const { id, secret } = await checkIn(projectId, visitors, { name: 'Ada' });
    const path = `/api/projects/${projectId}/visitors/${id}`;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => [
        call('POST', `${path}/events`, { headers: secretHeader(secret), body: { collectionName: visitorEvents, data: { eventType: i % 2 ? 'checkOut' : 'checkIn', n: i } } }).then((answer) => ({ kind: 'event', answer })),
        call('PATCH', path, { headers: secretHeader(secret), body: { collectionName: visitors, data: { note: `p${i}` } } }).then((answer) => ({ kind: 'patch', answer })),
      ]).flat(),
    );
    const events = answers.filter((entry) => entry.kind === 'event').map((entry) => entry.answer);
    expect(events.every((answer) => answer.status === 201 || (answer.status === 503 && answer.body.code === 'VISITORS_BUSY')), JSON.stringify(events.map((a) => a.status))).toBe(true);
    const created = events.filter((answer) => answer.status === 201).map((answer) => answer.body.id as string);
    const stored = (await call('GET', `/api/projects/${projectId}/types/guest-events/data?limit=100`, { token: env.ownerToken })).body.items as Array<{ id: string }>;
    expect(stored.map((event) => event.id).sort()).toEqual([...created].sort());
    const visitor = (await call('GET', `${path}?collectionName=${visitors}`, { headers: secretHeader(secret) })).body;
    if (created.length) expect(visitor.latestEventType).toMatch(/^check(In|Out)$/);
  });
});

/**
 * A platform of its own whose store runs `meanwhile` (set by `afterNextVisitorRead`) right after
 * the next read of a visitor by id, before that read answers: another request lands between a
 * request's read of the visitor and its write.
 */
async function withReadsInterleaved(test: (own: CheckInPlatform, afterNextVisitorRead: InterleavedReads['afterNextRead'], store: DocumentStore) => Promise<void>): Promise<void> {
  const temporary = await temporaryEmbeddedStore('visitor-races');
  const interleaved = interleavedReads(temporary.store, (collection) => collection.endsWith('-guests'));
  const own = await startCheckInPlatform(testConfig(), { store: interleaved.store });
  try {
    await test(own, interleaved.afterNextRead, temporary.store);
  } finally {
    await own.platform.close();
    await temporary.dispose();
  }
}

describe('a PATCH of a visitor with another request between its read and its write', () => {
  it('moves the erasure date the retention job reads only with the visitor: a PATCH refused at its write moves neither', async () => {
    await withReadsInterleaved(async (own, afterNextVisitorRead, store) => {
      const periods = [
        { duration: DAY, label: { en: '1 day' } },
        { duration: 7 * DAY, label: { en: '1 week' }, isDefault: true },
      ];
      const { projectId, visitors } = await own.seedCheckIn({ deletionPeriods: periods });
      const { id, secret } = (await own.platform.call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: { name: 'Ada' } } })).body as { id: string; secret: string };
      const big = 'x'.repeat(250_000);
      const path = `/api/projects/${projectId}/visitors/${id}`;
      const ledgerEntry = () => store.collection('visitor-retention').findOne({ kind: 'visitor', entityId: id });
      const before = await ledgerEntry();
      expect(before).toMatchObject({ deleteOnPreference: 7 * DAY });
      // The owner fills the visitor up while the kiosk's PATCH, checked on the smaller visitor, is on its way to its write.
      afterNextVisitorRead(async () => {
        // One field a write: a modifier takes at most 256 kB.
        for (let field = 0; field < 4; field += 1) {
          const filled = await own.platform.call('PATCH', `/api/projects/${projectId}/types/guests/data/${id}`, { token: own.ownerToken, body: { baseRevision: field, modifier: { $set: { [`f${field}`]: big } } } });
          expect(filled.status).toBe(200);
        }
      });
      own.time.now += DAY;
      const refused = await own.platform.call('PATCH', path, { headers: secretHeader(secret), body: { collectionName: visitors, data: { g: big }, deletionPeriod: DAY } });
      expect([refused.status, refused.body.code]).toEqual([400, 'VISITORS_INVALID_DATA']);
      const visitor = (await own.platform.call('GET', `${path}?collectionName=${visitors}`, { headers: secretHeader(secret) })).body;
      expect(visitor).toMatchObject({ deleteOnPreference: 7 * DAY, deleteOn: before?.deleteOn });
      expect(await ledgerEntry()).toMatchObject({ deleteOn: before?.deleteOn, deleteOnPreference: 7 * DAY });
    });
  });

  it('of a visitor deleted meanwhile is not found, and changes nothing', async () => {
    await withReadsInterleaved(async (own, afterNextVisitorRead) => {
      const { projectId, visitors } = await own.seedCheckIn();
      const { id, secret } = (await own.platform.call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: { name: 'Ada' } } })).body as { id: string; secret: string };
      const path = `/api/projects/${projectId}/visitors/${id}`;
      afterNextVisitorRead(async () => {
        expect((await own.platform.call('DELETE', `${path}?collectionName=${visitors}`, { headers: secretHeader(secret) })).status).toBe(200);
      });
      const late = await own.platform.call('PATCH', path, { headers: secretHeader(secret), body: { collectionName: visitors, data: { note: 'late' } } });
      expect([late.status, late.body.code]).toEqual([404, 'VISITORS_NOT_FOUND']);
      const stored = (await own.platform.call('GET', `/api/projects/${projectId}/types/guests/data/${id}`, { token: own.ownerToken })).body;
      expect([stored.revision, stored.note, stored.deletedAt]).toEqual([1, undefined, expect.any(Number)]);
    });
  });
});

describe('what visitor answers show and who may keep them', () => {
  it('a secret holder never sees the record\'s access; a member does; no answer may be cached', async () => {
    const { projectId, visitors, visitorEvents } = await env.seedCheckIn({
      visitorDefaultAccess: (projectId) => ({ read: { permission: `${projectId}::reception`, userIds: ['owner'] }, update: { userIds: ['owner'] } }),
    });
    const created = await call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: { name: 'Ada' } } });
    expect(created.status).toBe(201);
    const { id, secret } = created.body as { id: string; secret: string };
    const path = `/api/projects/${projectId}/visitors/${id}`;
    const publicAnswers = [
      await call('GET', `${path}?collectionName=${visitors}`, { headers: secretHeader(secret) }),
      await call('PATCH', path, { headers: secretHeader(secret), body: { collectionName: visitors, data: { company: 'Analytical' } } }),
    ];
    const member = await call('GET', `${path}?collectionName=${visitors}`, { token: env.ownerToken });
    expect(member.body.access).toMatchObject({ read: { userIds: ['owner'] } });
    const event = await call('POST', `${path}/events`, { headers: secretHeader(secret), body: { collectionName: visitorEvents, data: { eventType: 'checkIn' } } });
    publicAnswers.push(await call('DELETE', `${path}?collectionName=${visitors}`, { headers: secretHeader(secret) }));
    for (const answer of publicAnswers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ id, name: 'Ada' });
      expect(answer.body).not.toHaveProperty('access');
      expect(JSON.stringify(answer.body)).not.toMatch(/owner|reception/);
    }
    const notFound = await call('GET', `${path}?collectionName=${visitors}`, { headers: secretHeader('wrong') });
    const invalid = await call('GET', `${path}?collectionName=tenant-${projectId}-nothing`, { headers: secretHeader(secret) });
    expect([notFound.status, invalid.status]).toEqual([404, 400]);
    for (const answer of [created, ...publicAnswers, member, event, notFound, invalid]) expect(answer.headers.get('cache-control')).toBe('no-store');
  });
});

type Names = Awaited<ReturnType<CheckInPlatform['seedCheckIn']>>;
const seeded = () => env.seedCheckIn({ visitorSchema: { fields: { name: { type: 'string', required: true }, company: { type: 'string' } } } });

describe('rate limits', () => {
  it('limits requests per client address and per kiosk binding with 429 and Retry-After', async () => {
    const limited = await startCheckInPlatform(testConfig({ perIp: 1_000, perKiosk: 3, reservedPerIp: 2 }));
    try {
      const { projectId, visitors } = await limited.seedCheckIn();
      const other = await limited.seedCheckIn();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await limited.platform.call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: {} } })).status);
      expect(statuses).toEqual([201, 201, 201, 429]);
      const refused = await limited.platform.call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: {} } });
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(refused.body).toMatchObject({ code: 'VISITORS_RATE_LIMITED', details: { limit: 'kiosk' } });
      // Another project has its own budget; after the window, this one has a fresh one.
      expect((await limited.platform.call('POST', `/api/projects/${other.projectId}/visitors`, { body: { collectionName: other.visitors, data: {} } })).status).toBe(201);
      limited.time.now += 61_000;
      expect((await limited.platform.call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: {} } })).status).toBe(201);
    } finally {
      await limited.platform.close();
    }
  });

  it('limits one client address across projects', async () => {
    const limited = await startCheckInPlatform(testConfig({ perIp: 2 }));
    try {
      const first = await limited.seedCheckIn();
      const second = await limited.seedCheckIn();
      const post = (s: Names) => limited.platform.call('POST', `/api/projects/${s.projectId}/visitors`, { body: { collectionName: s.visitors, data: {} } });
      expect([(await post(first)).status, (await post(second)).status, (await post(second)).status]).toEqual([201, 201, 429]);
    } finally {
      await limited.platform.close();
    }
  });
});

describe('rate limits by IPv6 prefix', () => {
  it('counts the addresses of one IPv6 /64 as one client address, for the address limit and for the kiosk reserve', async () => {
    const limited = await startCheckInPlatform(testConfig({ perIp: 2, perKiosk: 1, reservedPerIp: 1 }), { trustProxy: 1 });
    try {
      const { projectId, visitors } = await limited.seedCheckIn();
      const post = (from: string) => limited.platform.call('POST', `/api/projects/${projectId}/visitors`, { headers: { 'x-forwarded-for': from }, body: { collectionName: visitors, data: {} } });
      expect((await post('2001:db8:5:6::1')).status).toBe(201);
      // The kiosk's budget is spent, and this /64 used its reserve: another of its addresses is refused.
      const sameClient = await post('2001:db8:5:6:ffff::2');
      expect(sameClient.status).toBe(429);
      expect(sameClient.body).toMatchObject({ code: 'VISITORS_RATE_LIMITED', details: { limit: 'kiosk' } });
      // Its third request is past the address limit of 2.
      expect((await post('2001:db8:5:6::3')).body).toMatchObject({ code: 'VISITORS_RATE_LIMITED', details: { limit: 'ip' } });
      // Another /64 keeps its own reserve.
      expect((await post('2001:db8:5:7::1')).status).toBe(201);
    } finally {
      await limited.platform.close();
    }
  });
});

describe('anonymous traffic cannot lock a project out', () => {
  it('many addresses spending the kiosk budget are refused beyond their reserve; the kiosk\'s own address and signed-in members go on', async () => {
    const limited = await startCheckInPlatform(testConfig({ perIp: 10, perKiosk: 30, reservedPerIp: 3 }));
    try {
      const { projectId, visitors } = await limited.seedCheckIn();
      const probe = `/api/projects/${projectId}/visitors/nobody?collectionName=${visitors}`;
      // 11 addresses, 9 requests each: under the per-address limit, three times the kiosk budget.
      const flood: number[] = [];
      for (let address = 10; address <= 20; address += 1) for (let i = 0; i < 9; i += 1) flood.push((await callFrom(limited, `127.0.0.${address}`, 'GET', probe)).status);
      // The first 30 spend the budget (addresses .10 to .12 and three of .13); then each address has its reserve of 3.
      expect(flood.filter((status) => status === 404)).toHaveLength(30 + 3 * 7);
      expect(flood.filter((status) => status === 429)).toHaveLength(99 - 51);
      const refused = await callFrom(limited, '127.0.0.20', 'GET', probe);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'VISITORS_RATE_LIMITED', details: { limit: 'kiosk' } });
      expect(refused.headers['retry-after']).toBe('60');

      // The kiosk's address still checks visitors in; the owner is not limited at all.
      for (let i = 0; i < 3; i += 1) expect((await callFrom(limited, '127.0.0.2', 'POST', `/api/projects/${projectId}/visitors`, { collectionName: visitors, data: { name: `Guest ${i}` } })).status).toBe(201);
      for (let i = 0; i < 12; i += 1) {
        const byOwner = await limited.platform.call('POST', `/api/projects/${projectId}/visitors`, { token: limited.ownerToken, body: { collectionName: visitors, data: { name: `Walk-in ${i}` } } });
        expect(byOwner.status).toBe(201);
      }
      // After the window, every address has a fresh budget.
      limited.time.now += 60_000;
      expect((await callFrom(limited, '127.0.0.20', 'GET', probe)).status).toBe(404);
    } finally {
      await limited.platform.close();
    }
  });
});

/** One request through the gateway from a chosen loopback address (the gateway sees it as the client address). */
function callFrom(target: CheckInPlatform, localAddress: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: IncomingHttpHeaders }> {
  const url = new URL(path, target.platform.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, localAddress, headers: payload ? { 'content-type': 'application/json' } : {} }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined, headers: response.headers }));
    });
    request.on('error', reject);
    request.end(payload);
  });
}

describe('OpenAPI', () => {
  it('documents every visitor route', async () => {
    const document = (await call('GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(document.paths['/api/projects/{projectId}/visitors'] ?? {})).toEqual(['post']);
    expect(Object.keys(document.paths['/api/projects/{projectId}/visitors/{visitorId}'] ?? {}).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(document.paths['/api/projects/{projectId}/visitors/{visitorId}/events'] ?? {})).toEqual(['post']);
  });
});

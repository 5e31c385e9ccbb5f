import { interleavedReads, temporaryEmbeddedStore } from '@platform/storage/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { DAY, startCheckInPlatform, testConfig, type CheckInPlatform } from '../testing/visitors-test-platform';

let env: CheckInPlatform | undefined;
afterEach(async () => {
  await env?.platform.close();
  env = undefined;
});

async function start(publicWrites: Parameters<typeof testConfig>[1]): Promise<CheckInPlatform> {
  env = await startCheckInPlatform(testConfig({}, publicWrites));
  return env;
}

const secretHeader = (secret: string) => ({ 'x-visitor-secret': secret });

/** The project's records of a type, as its owner reads them through the data routes. */
async function stored(own: CheckInPlatform, projectId: string, typeId: string): Promise<Array<Record<string, unknown>>> {
  return (await own.platform.call('GET', `/api/projects/${projectId}/types/${typeId}/data?limit=100`, { token: own.ownerToken })).body.items;
}

async function checkIn(own: CheckInPlatform, projectId: string, collectionName: string, data: Record<string, unknown>): Promise<{ id: string; secret: string }> {
  const response = await own.platform.call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName, data } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

describe('what a public caller may store in one record', () => {
  it('a check-in, change or event past the cap is refused with 413 naming data, and nothing is stored; members are not capped', async () => {
    const own = await start({ maxDataBytes: 1024 });
    const { projectId, visitors, visitorEvents } = await own.seedCheckIn();

    const tooLarge = await own.platform.call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: { name: 'x'.repeat(2_000) } } });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toMatchObject({ code: 'VISITORS_DATA_TOO_LARGE', details: { field: 'data', limit: 1024, bytes: 2_011 } });
    expect(tooLarge.body.error).toMatch(/^Invalid data: /);
    expect(await stored(own, projectId, 'guests')).toEqual([]);

    // A change is measured with the fields the visitor already has.
    const { id, secret } = await checkIn(own, projectId, visitors, { name: 'Ada' });
    const path = `/api/projects/${projectId}/visitors/${id}`;
    const patch = (data: Record<string, unknown>) => own.platform.call('PATCH', path, { headers: secretHeader(secret), body: { collectionName: visitors, data } });
    expect((await patch({ note: 'x'.repeat(600) })).status).toBe(200);
    const grown = await patch({ more: 'x'.repeat(600) });
    expect(grown.status).toBe(413);
    expect(grown.body).toMatchObject({ code: 'VISITORS_DATA_TOO_LARGE', details: { field: 'data', limit: 1024 } });

    const event = await own.platform.call('POST', `${path}/events`, { headers: secretHeader(secret), body: { collectionName: visitorEvents, data: { eventType: 'checkIn', note: 'x'.repeat(2_000) } } });
    expect(event.status).toBe(413);
    expect(event.body).toMatchObject({ code: 'VISITORS_DATA_TOO_LARGE', details: { field: 'data', limit: 1024 } });
    expect(await stored(own, projectId, 'guest-events')).toEqual([]);
    const [visitor] = await stored(own, projectId, 'guests');
    expect(visitor).toMatchObject({ id, revision: 1, name: 'Ada' });
    expect(visitor).not.toHaveProperty('more');
    expect(visitor).not.toHaveProperty('latestEventType');

    // The owner (a member) is held to the data service's limits only.
    const byOwner = await own.platform.call('POST', `/api/projects/${projectId}/visitors`, { token: own.ownerToken, body: { collectionName: visitors, data: { name: 'x'.repeat(2_000) } } });
    expect(byOwner.status).toBe(201);
  });

  it('a change is checked again on the visitor it writes: another change landing after its read cannot add up past the cap', async () => {
    const temporary = await temporaryEmbeddedStore('visitor-public-size');
    const interleaved = interleavedReads(temporary.store, (collection) => collection.endsWith('-guests'));
    const own = await startCheckInPlatform(testConfig({}, { maxDataBytes: 1024, perKioskPerDay: 3 }), { store: interleaved.store });
    try {
      const { projectId, visitors } = await own.seedCheckIn();
      const { id, secret } = await checkIn(own, projectId, visitors, { name: 'Ada' });
      const patch = (data: Record<string, unknown>) => own.platform.call('PATCH', `/api/projects/${projectId}/visitors/${id}`, { headers: secretHeader(secret), body: { collectionName: visitors, data } });
      // Each change is within the cap on the visitor it read; the first lands between the second's read and its write.
      interleaved.afterNextRead(async () => {
        expect((await patch({ first: 'x'.repeat(600) })).status).toBe(200);
      });
      const second = await patch({ second: 'x'.repeat(600) });
      expect(second.status).toBe(413);
      expect(second.body).toMatchObject({ code: 'VISITORS_DATA_TOO_LARGE', details: { field: 'data', limit: 1024 } });
      const [visitor] = await stored(own, projectId, 'guests');
      expect(visitor).toMatchObject({ revision: 1, first: 'x'.repeat(600) });
      expect(visitor).not.toHaveProperty('second');
      // The refused change gave back the write it had counted: the check-in and the first change spent two of three.
      await checkIn(own, projectId, visitors, { name: 'Bob' });
      const fourth = await own.platform.call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: { name: 'Eve' } } });
      expect([fourth.status, fourth.body.code]).toEqual([429, 'VISITORS_QUOTA_EXCEEDED']);
    } finally {
      await own.platform.close();
      await temporary.dispose();
    }
  });

  it('data past the data service\'s limit for one write is refused naming data, not the modifier', async () => {
    const own = await start({});
    const { projectId, visitors } = await own.seedCheckIn();
    const refused = await own.platform.call('POST', `/api/projects/${projectId}/visitors`, { token: own.ownerToken, body: { collectionName: visitors, data: { name: 'x'.repeat(300_000) } } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'VISITORS_INVALID_DATA', details: { problems: [{ field: 'data' }] } });
    expect(refused.body.error).toMatch(/^Invalid data: is \d+ bytes; the limit is 262144$/);
    expect(await stored(own, projectId, 'guests')).toEqual([]);
  });
});

describe('public writes per kiosk binding per day', () => {
  it('past the quota, parallel check-ins, changes and events are refused with 429 and Retry-After; members, other bindings and the next day go on', async () => {
    const own = await start({ perKioskPerDay: 3 });
    const { projectId, visitors, visitorEvents } = await own.seedCheckIn();
    const post = () => own.platform.call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: { name: 'Guest' } } });

    // Refused input stores nothing, so it spends nothing.
    for (let i = 0; i < 3; i += 1) expect((await own.platform.call('POST', `/api/projects/${projectId}/visitors`, { body: { collectionName: visitors, data: { _internal: 1 } } })).status).toBe(400);

    const answers = await Promise.all(Array.from({ length: 8 }, post));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 429, 429, 429, 429, 429]);
    const refused = answers.find((answer) => answer.status === 429)!;
    // The test clock stands at noon UTC: the quota's day ends in 12 hours.
    expect(refused.body).toMatchObject({ code: 'VISITORS_QUOTA_EXCEEDED', details: { retryAfterSeconds: 43_200, quota: 3 } });
    expect(refused.headers.get('retry-after')).toBe('43200');
    expect(await stored(own, projectId, 'guests')).toHaveLength(3);

    // A change is a write of the visitor binding too.
    const { id, secret } = answers.find((answer) => answer.status === 201)!.body as { id: string; secret: string };
    const path = `/api/projects/${projectId}/visitors/${id}`;
    const change = await own.platform.call('PATCH', path, { headers: secretHeader(secret), body: { collectionName: visitors, data: { company: 'Analytical' } } });
    expect([change.status, change.body.code]).toEqual([429, 'VISITORS_QUOTA_EXCEEDED']);

    // The event type is a binding of its own, with its own quota.
    const event = () => own.platform.call('POST', `${path}/events`, { headers: secretHeader(secret), body: { collectionName: visitorEvents, data: { eventType: 'checkIn' } } });
    const events = [await event(), await event(), await event(), await event()];
    expect(events.map((answer) => answer.status)).toEqual([201, 201, 201, 429]);
    expect(events[3]?.body.code).toBe('VISITORS_QUOTA_EXCEEDED');
    expect(await stored(own, projectId, 'guest-events')).toHaveLength(3);

    // Members are not counted; another project's kiosk has its own quota; the next day has a fresh one.
    expect((await own.platform.call('POST', `/api/projects/${projectId}/visitors`, { token: own.ownerToken, body: { collectionName: visitors, data: { name: 'Walk-in' } } })).status).toBe(201);
    const other = await own.seedCheckIn();
    await checkIn(own, other.projectId, other.visitors, { name: 'Elsewhere' });
    own.time.now += DAY;
    expect((await post()).status).toBe(201);
  });
});

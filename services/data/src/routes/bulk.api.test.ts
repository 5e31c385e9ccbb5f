import type { BusMessage } from '@platform/bus';
import type { DocumentEvent } from '@platform/contracts';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataService } from '../app';
import { BULK_MAX_OPERATIONS } from './bulk';
import { BULK_CONFLICT_DETAILS_BUDGET, BULK_CONFLICT_REPLAY_BUDGET } from './bulk-conflict-budget';
import { BULK_DOCUMENTS_BUDGET } from './bulk-document-budget';

let platform: TestGateway;
let projectId: string;
const tokens: Record<'owner' | 'alice' | 'bob' | 'stranger', string> = { owner: '', alice: '', bob: '', stranger: '' };
const events: Array<BusMessage<DocumentEvent>> = [];

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService] });
  for (const name of Object.keys(tokens) as Array<keyof typeof tokens>) tokens[name] = await platform.signIn(name);
  projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'alice', permissions: ['editors'] }, { userId: 'bob' }] });
  await platform.context.bus.subscribe<DocumentEvent>({ durable: 'bulk-api-test', filter: 'platform.docs.>', handler: async (message) => void events.push(message) });
});

afterAll(async () => {
  await platform?.close();
});

const dataPath = (typeId: string) => `/api/projects/${projectId}/types/${typeId}/data`;
const bulk = (typeId: string, body: unknown, token: string = tokens.alice) => platform.call('POST', `${dataPath(typeId)}/bulk`, { token, body });

async function createType(body: Record<string, unknown> = {}): Promise<string> {
  const response = await platform.call('POST', `/api/projects/${projectId}/types`, { token: tokens.owner, body: { name: 'Bulk', ...body } });
  expect(response.status).toBe(201);
  return response.body.id as string;
}

async function create(typeId: string, body: Record<string, unknown>, token = tokens.owner): Promise<string> {
  const response = await platform.call('POST', dataPath(typeId), { token, body });
  expect(response.status).toBe(201);
  return response.body.id as string;
}

const stored = async (typeId: string) => (await platform.call('GET', `${dataPath(typeId)}?updatedAt=0&includeChanges=true`, { token: tokens.owner })).body.items as Array<Record<string, unknown>>;

describe('POST .../data/bulk', () => {
  it('applies creates, patches and deletes, each with the single route’s result, history and events; a failing item changes nothing and stops nothing', async () => {
    const typeId = await createType({ schema: { fields: { rating: { type: 'integer', minimum: 1, maximum: 5 } } } });
    const patched = await create(typeId, { title: 'patch me' });
    const stale = await create(typeId, { title: 'changed meanwhile' });
    expect((await platform.call('PATCH', `${dataPath(typeId)}/${stale}`, { token: tokens.owner, body: { modifier: { $set: { title: 'theirs' } }, baseRevision: 0 } })).status).toBe(200);
    const doomed = await create(typeId, { title: 'delete me' });
    const answer = await bulk(typeId, {
      operations: [
        { op: 'create', fields: { id: 'bulk-one', title: 'one' } },
        { op: 'create', fields: { title: 'generated id' } },
        { op: 'create', fields: { id: 'bulk-one', title: 'duplicate' } },
        { op: 'create', fields: { rating: 9 } },
        { op: 'patch', id: patched, modifier: { $set: { title: 'patched' } }, baseRevision: 0 },
        { op: 'patch', id: stale, modifier: { $set: { note: 'mine' } }, baseRevision: 0 },
        { op: 'patch', id: patched, modifier: { $bogus: { title: 'x' } }, baseRevision: 1 },
        { op: 'delete', id: doomed },
        { op: 'delete', id: 'never-existed' },
      ],
    });
    expect(answer.status).toBe(200);
    const results = answer.body.results as Array<{ status: number; body: Record<string, any> }>;
    expect(results.map((result) => [result.status, result.body.code])).toEqual([
      [201, undefined],
      [201, undefined],
      [409, 'DATA_DUPLICATE_ID'],
      [400, 'DATA_SCHEMA_VIOLATION'],
      [200, undefined],
      [409, 'DATA_REVISION_CONFLICT'],
      [400, 'DATA_INVALID_MODIFIER'],
      [200, undefined],
      [404, 'DATA_ENTITY_NOT_FOUND'],
    ]);
    expect(results[0]?.body).toMatchObject({ id: 'bulk-one', revision: 0, title: 'one' });
    expect(results[3]?.body.error).toContain('rating');
    expect(results[4]?.body).toMatchObject({ id: patched, revision: 1, title: 'patched' });
    expect(results[5]?.body.details).toMatchObject({ baseRevision: 0, currentRevision: 1, fields: [{ path: 'note', serverTouched: false }] });
    expect(results[7]?.body).toMatchObject({ id: doomed, revision: 1, deletedAt: expect.any(Number) });

    const documents = await stored(typeId);
    const byId = new Map(documents.map((document) => [document.id, document]));
    expect(byId.get('bulk-one')).toMatchObject({ title: 'one', revision: 0, changes: [{ userId: 'alice', baseRevision: -1 }] });
    expect(byId.get(results[1]?.body.id)).toMatchObject({ title: 'generated id' });
    expect(byId.get(patched)).toMatchObject({ title: 'patched', revision: 1, changes: [{ userId: 'owner' }, { userId: 'alice', baseRevision: 0 }] });
    expect(byId.get(stale)).toMatchObject({ title: 'theirs', revision: 1 });
    expect(byId.get(stale)).not.toHaveProperty('note');
    expect(byId.get(doomed)).toMatchObject({ deletedAt: expect.any(Number) });
    expect(documents).toHaveLength(5);

    const bulkEvents = () => events.filter((event) => event.subject.startsWith(`platform.docs.${projectId}.${typeId}.`) && event.data.change?.userId === 'alice').map((event) => `${event.data.entityId} ${event.data.kind}`);
    await expect.poll(() => bulkEvents().sort()).toEqual(['bulk-one created', `${results[1]?.body.id} created`, `${patched} updated`, `${doomed} deleted`].sort());
  });

  it('applies the operations naming one entity in their order, and answers every result in the request’s order', async () => {
    const typeId = await createType();
    const operations = [
      { op: 'create', fields: { id: 'chained', step: 0 } },
      ...Array.from({ length: 40 }, (_, n) => ({ op: 'create', fields: { id: `other-${n}`, n } })),
      { op: 'patch', id: 'chained', modifier: { $set: { step: 1 } }, baseRevision: 0 },
      { op: 'patch', id: 'chained', modifier: { $set: { step: 2 } }, baseRevision: 1 },
      { op: 'delete', id: 'chained' },
    ];
    const answer = await bulk(typeId, { operations });
    expect(answer.body.results.map((result: { status: number }) => result.status)).toEqual([201, ...Array.from({ length: 40 }, () => 201), 200, 200, 200]);
    expect(answer.body.results.slice(1, 41).map((result: { body: { id: string } }) => result.body.id)).toEqual(Array.from({ length: 40 }, (_, n) => `other-${n}`));
    expect(answer.body.results.at(-1).body).toMatchObject({ id: 'chained', revision: 3, step: 2, deletedAt: expect.any(Number) });
  });

  it('keeps RLS per item: an entity the caller may not update or delete answers 403, one it may not read 404, and the others apply', async () => {
    const typeId = await createType();
    const guarded = await create(typeId, { title: 'editors only', access: { update: { permission: `${projectId}::editors` }, delete: { permission: `${projectId}::editors` } } });
    const hidden = await create(typeId, { title: 'hidden', access: { read: { permission: `${projectId}::editors` } } });
    const open = await create(typeId, { title: 'open' });
    const operations = [
      { op: 'patch', id: guarded, modifier: { $set: { title: 'bob was here' } }, baseRevision: 0 },
      { op: 'delete', id: guarded },
      { op: 'patch', id: hidden, modifier: { $set: { title: 'bob was here' } }, baseRevision: 0 },
      { op: 'patch', id: open, modifier: { $set: { title: 'bob was here' } }, baseRevision: 0 },
    ];
    const bob = await bulk(typeId, { operations }, tokens.bob);
    expect(bob.body.results.map((result: { status: number; body: { code?: string } }) => [result.status, result.body.code])).toEqual([
      [403, 'DATA_FORBIDDEN'],
      [403, 'DATA_FORBIDDEN'],
      [404, 'DATA_ENTITY_NOT_FOUND'],
      [200, undefined],
    ]);
    const titles = new Map((await stored(typeId)).map((document) => [document.id, document.title]));
    expect([titles.get(guarded), titles.get(hidden), titles.get(open)]).toEqual(['editors only', 'hidden', 'bob was here']);
    expect((await bulk(typeId, { operations: operations.slice(0, 1) }, tokens.alice)).body.results[0].status).toBe(200);

    const stranger = await bulk(typeId, { operations: [{ op: 'create', fields: { title: 'intruder' } }] }, tokens.stranger);
    expect([stranger.status, stranger.body.code]).toEqual([404, 'PROJECT_NOT_FOUND']);
    expect((await bulk(typeId, { operations: [{ op: 'create', fields: { title: 'anonymous' } }] }, '')).status).toBe(401);
    expect((await bulk('no-such-type', { operations: [{ op: 'create', fields: {} }] })).body.code).toBe('DATA_TYPE_NOT_FOUND');
    expect((await stored(typeId)).map((document) => document.title)).not.toContain('intruder');
  });

  it('refuses a malformed request with 400 naming the field, and applies nothing of it', async () => {
    const typeId = await createType();
    const tooMany = Array.from({ length: BULK_MAX_OPERATIONS + 1 }, (_, index) => ({ op: 'create', fields: { n: index } }));
    for (const [body, field] of [
      [{ operations: [] }, 'operations'],
      [{ operations: tooMany }, 'operations'],
      [{ operations: [{ op: 'create', fields: { n: 1 } }, { op: 'replace', id: 'x' }] }, 'operations.1'],
      [{ operations: [{ op: 'patch', id: 'x', modifier: { $set: { a: 1 } } }] }, 'operations.0.baseRevision'],
      [{ operations: [{ op: 'delete', id: 'not an id!' }] }, 'operations.0.id'],
    ] as const) {
      const refused = await bulk(typeId, body);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_FAILED');
      expect(refused.body.error).toContain(field);
    }
    expect(await stored(typeId)).toEqual([]);
  });

  it('bounds the conflict details of one answer: past the budget a conflict says its details were omitted, and sent alone it gets them', async () => {
    const typeId = await createType();
    // About 800 kB: a write's modifier takes at most 256 kB, so the text comes in four parts.
    const large = await create(typeId, { title: 'large', part0: 'x'.repeat(200_000) });
    for (let revision = 0; revision < 3; revision += 1) {
      const grown = await platform.call('PATCH', `${dataPath(typeId)}/${large}`, { token: tokens.owner, body: { modifier: { $set: { [`part${revision + 1}`]: 'x'.repeat(200_000) } }, baseRevision: revision } });
      expect(grown.status).toBe(200);
    }
    expect((await platform.call('PATCH', `${dataPath(typeId)}/${large}`, { token: tokens.owner, body: { modifier: { $set: { title: 'theirs' } }, baseRevision: 3 } })).status).toBe(200);
    const stalePatch = { op: 'patch', id: large, modifier: { $set: { title: 'mine' } }, baseRevision: 3 };
    const answer = await bulk(typeId, { operations: Array.from({ length: 20 }, () => stalePatch) });
    expect(answer.status).toBe(200);
    const results = answer.body.results as Array<{ status: number; body: { code: string; details: Record<string, unknown> } }>;
    expect(results.every((result) => result.status === 409 && result.body.code === 'DATA_REVISION_CONFLICT')).toBe(true);
    const whole = results.filter((result) => result.body.details.current !== undefined);
    const omitted = results.filter((result) => result.body.details.detailsOmitted === true);
    expect(whole.length).toBeGreaterThan(0);
    expect(omitted.length).toBeGreaterThan(0);
    expect(whole.length + omitted.length).toBe(20);
    // One entity's operations run in order, so the whole ones come first.
    expect(results.slice(0, whole.length)).toEqual(whole);
    for (const { body } of omitted) expect(body.details).toEqual({ baseRevision: 3, currentRevision: 4, detailsOmitted: true });
    const oneConflict = JSON.stringify(whole[0]?.body.details).length;
    expect(oneConflict).toBeGreaterThan(700_000);
    expect(JSON.stringify(answer.body).length).toBeLessThan(BULK_CONFLICT_DETAILS_BUDGET + oneConflict + 20 * 500);

    const alone = await bulk(typeId, { operations: [stalePatch] });
    expect(alone.body.results[0].body.details).toEqual(whole[0]?.body.details);
    const after = await platform.call('GET', `${dataPath(typeId)}/${large}`, { token: tokens.owner });
    expect(after.body).toMatchObject({ revision: 4, title: 'theirs' });
  });

  it('bounds the history one request’s conflicts replay: past the budget a stale patch answers detailsOmitted, changes nothing, and sent alone gets its details', async () => {
    const typeId = await createType();
    const counter = await create(typeId, { id: 'counter', n: 0 });
    const grown = await bulk(typeId, { operations: Array.from({ length: 200 }, (_, revision) => ({ op: 'patch', id: counter, modifier: { $inc: { n: 1 } }, baseRevision: revision })) });
    expect(grown.body.results.every((result: { status: number }) => result.status === 200)).toBe(true);
    // Each conflict's details replay the entity's 201 revisions; each is small, so only the replay budget ends them.
    const stalePatch = { op: 'patch', id: counter, modifier: { $inc: { n: 1 } }, baseRevision: 199 };
    const answer = await bulk(typeId, { operations: Array.from({ length: 500 }, () => stalePatch) });
    const results = answer.body.results as Array<{ status: number; body: { code: string; details: Record<string, unknown> } }>;
    expect(results.every((result) => result.status === 409 && result.body.code === 'DATA_REVISION_CONFLICT')).toBe(true);
    const explained = Math.ceil(BULK_CONFLICT_REPLAY_BUDGET / 201);
    expect(results.slice(0, explained).every((result) => result.body.details.current !== undefined)).toBe(true);
    for (const { body } of results.slice(explained)) expect(body.details).toEqual({ baseRevision: 199, currentRevision: 200, detailsOmitted: true });

    const alone = await bulk(typeId, { operations: [stalePatch] });
    expect(alone.body.results[0].body.details).toEqual(results[0]?.body.details);
    expect((await platform.call('GET', `${dataPath(typeId)}/${counter}`, { token: tokens.owner })).body).toMatchObject({ n: 200, revision: 200 });
  });

  it('bounds the documents of one answer: past the budget a success answers its version without the body, and is applied all the same', async () => {
    const typeId = await createType();
    // Twelve documents of about 800 kB: a write's modifier takes at most 256 kB, so each comes in four parts.
    const ids: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      const id = await create(typeId, { id: `large-${index}`, title: 'first', part0: 'x'.repeat(200_000) });
      for (let revision = 0; revision < 3; revision += 1) {
        const grown = await platform.call('PATCH', `${dataPath(typeId)}/${id}`, { token: tokens.owner, body: { modifier: { $set: { [`part${revision + 1}`]: 'x'.repeat(200_000) } }, baseRevision: revision } });
        expect(grown.status).toBe(200);
      }
      ids.push(id);
    }
    const patched = await bulk(typeId, { operations: ids.map((id) => ({ op: 'patch', id, modifier: { $set: { title: 'second' } }, baseRevision: 3 })) });
    const results = patched.body.results as Array<{ status: number; body: Record<string, unknown> }>;
    expect(results.every((result) => result.status === 200)).toBe(true);
    const whole = results.filter((result) => result.body.part0 !== undefined);
    const omitted = results.filter((result) => result.body.bodyOmitted === true);
    expect(whole.length).toBeGreaterThan(0);
    expect(omitted.length).toBeGreaterThan(0);
    expect(whole.length + omitted.length).toBe(12);
    const oneDocument = JSON.stringify(whole[0]?.body).length;
    expect(JSON.stringify(patched.body).length).toBeLessThan(BULK_DOCUMENTS_BUDGET + oneDocument + 12 * 200);
    for (const { body } of omitted) {
      expect(body).toEqual({ id: expect.any(String), revision: 4, createdAt: expect.any(Number), updatedAt: expect.any(Number), bodyOmitted: true });
      const stored = await platform.call('GET', `${dataPath(typeId)}/${body.id}`, { token: tokens.owner });
      expect(stored.body).toMatchObject({ revision: 4, title: 'second', updatedAt: body.updatedAt });
      const state = await platform.call('GET', `${dataPath(typeId)}/${body.id}/revisions/4`, { token: tokens.owner });
      expect(state.body.state).toMatchObject({ title: 'second', part3: 'x'.repeat(200_000) });
    }

    // No-op patches answer the document as it is: held to the same budget.
    const noOps = await bulk(typeId, { operations: Array.from({ length: 20 }, () => ({ op: 'patch', id: ids[0], modifier: { $set: { title: 'second' } }, baseRevision: 4 })) });
    expect(noOps.body.results.every((result: { status: number }) => result.status === 200)).toBe(true);
    expect(noOps.body.results.filter((result: { body: Record<string, unknown> }) => result.body.bodyOmitted === true).length).toBeGreaterThan(0);
    expect(JSON.stringify(noOps.body).length).toBeLessThan(BULK_DOCUMENTS_BUDGET + oneDocument + 20 * 200);
  });

  it('is in the OpenAPI document', async () => {
    const document = (await platform.call('GET', '/api/openapi.json')).body;
    const route = document.paths['/api/projects/{projectId}/types/{typeId}/data/bulk'].post;
    expect(route.summary).toContain('not atomic');
    expect(route.responses['200'].content['application/json'].schema.properties.results).toBeDefined();
  });
});

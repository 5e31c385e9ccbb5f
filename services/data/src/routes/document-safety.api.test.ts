import type { BusMessage } from '@platform/bus';
import type { DocumentEvent } from '@platform/contracts';
import { AppError } from '@platform/kit';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { createEmbeddedStore, type Collection, type DocumentStore, type Filter, type StoredDocument, type UpdateModifier } from '@platform/storage';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataDeps, TypeDirectory, updateDocumentAs } from '@platform/documents';
import { dataService } from '../app';

let platform: TestGateway;
let projectId: string;
let token: string;
const events: Array<BusMessage<DocumentEvent>> = [];

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService] });
  token = await platform.signIn('owner');
  projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'member' }] });
  await platform.context.bus.subscribe<DocumentEvent>({ durable: 'document-safety-test', filter: 'platform.docs.>', handler: async (message) => void events.push(message) });
});

afterAll(async () => {
  await platform?.close();
});

const typesPath = () => `/api/projects/${projectId}/types`;
const dataPath = (typeId: string) => `/api/projects/${projectId}/types/${typeId}/data`;

async function createType(body: Record<string, unknown>): Promise<string> {
  const response = await platform.call('POST', typesPath(), { token, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as string;
}

async function createDocument(typeId: string, body: Record<string, unknown>) {
  const response = await platform.call('POST', dataPath(typeId), { token, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; revision: number } & Record<string, unknown>;
}

async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await call();
  return { result, ms: performance.now() - started };
}

/** A type record stored as an older server version accepted it, past today's schema checks. */
async function storeLegacyType(id: string, schema: unknown): Promise<void> {
  await dataDeps(platform.context).writer.create(TypeDirectory.typesScope(projectId), { name: id, syncType: 'remote', schema }, { userId: 'owner', id });
}

describe('type schema patterns', () => {
  /** Accepts up to 450 a's; RE2 runs it with about 2,000 instructions per character. */
  const costly = '^(a|aa|aaa|a?){1,150}$';

  it('evaluates a catastrophic-backtracking pattern in linear time while the gateway stays responsive', async () => {
    const typeId = await createType({ name: 'Codes', schema: { fields: { code: { type: 'string', pattern: '^(a+)+$' } } } });
    // 28 a's took 1.6 s with backtracking, doubling per character: 40 would take hours, so the
    // bounds below leave a loaded CI machine room and still fail by far without a linear engine.
    const evil = `${'a'.repeat(40)}!`;
    const writes = Promise.all(Array.from({ length: 5 }, () => timed(() => platform.call('POST', dataPath(typeId), { token, body: { code: evil } }))));
    const health = await timed(() => platform.call('GET', '/api/health'));
    const answers = await writes;
    for (const { result, ms } of answers) {
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({ code: 'DATA_SCHEMA_VIOLATION', error: expect.stringContaining('code') });
      expect(ms).toBeLessThan(3000);
    }
    expect(health.result.status).toBe(200);
    expect(health.ms).toBeLessThan(3000);
    expect((await platform.call('POST', dataPath(typeId), { token, body: { code: 'aaaa' } })).status).toBe(201);
    const samples = await timed(() => platform.call('GET', `/api/projects/${projectId}/types/${typeId}/sample-data?count=20&seed=1`, { token }));
    expect(samples.result.status).toBe(200);
    expect(samples.ms).toBeLessThan(5000);
  });

  it.each([
    ['lookahead', '^(?=a)a+$'],
    ['backreference', '^(a)\\1$'],
    ['lookbehind', '(?<=a)b'],
  ])('refuses a pattern with a %s when the schema is saved, naming the field', async (_kind, pattern) => {
    const response = await platform.call('POST', typesPath(), { token, body: { name: 'Bad', schema: { fields: { code: { type: 'string', pattern } } } } });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('schema.fields.code.pattern');
  });

  it('refuses a pattern whose RE2 program is too large when the schema is saved, naming the field', async () => {
    const response = await platform.call('POST', typesPath(), { token, body: { name: 'Huge', schema: { fields: { code: { type: 'string', pattern: '(.*){1,1000}[bc]' } } } } });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('schema.fields.code.pattern');
  });

  it('bounds the pattern work of one document: a long value against a costly pattern answers 400 at once while the gateway stays responsive', async () => {
    // RE2 is linear in the value, times the pattern's program (about 2,000 instructions here).
    const typeId = await createType({ name: 'Costly', schema: { type: 'object', properties: { code: { type: 'string', pattern: costly } } } });
    const long = `${'a'.repeat(200_000)}!`;
    const writes = Promise.all(Array.from({ length: 5 }, () => timed(() => platform.call('POST', dataPath(typeId), { token, body: { code: long } }))));
    const health = await timed(() => platform.call('GET', '/api/health'));
    for (const { result, ms } of await writes) {
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({ code: 'DATA_SCHEMA_VIOLATION', error: expect.stringContaining('code') });
      expect(result.body.error).toContain('too long to check against its pattern');
      expect(ms).toBeLessThan(2500);
    }
    expect(health.ms).toBeLessThan(1500);
    expect((await platform.call('POST', dataPath(typeId), { token, body: { code: 'aaaa' } })).status).toBe(201);
  });

  it('counts the pattern work of every value of a document together, and lets a cheap pattern check a long value', async () => {
    const typeId = await createType({ name: 'Many codes', schema: { type: 'object', properties: { codes: { type: 'array', items: { type: 'string', pattern: costly } }, text: { type: 'string', pattern: '^[a-z]+$' } } } });
    const many = await platform.call('POST', dataPath(typeId), { token, body: { codes: Array.from({ length: 30 }, () => 'a'.repeat(300)) } });
    expect(many.status).toBe(400);
    expect(many.body.error).toMatch(/codes\.\d+.*too long to check against its pattern/);
    expect((await platform.call('POST', dataPath(typeId), { token, body: { codes: Array.from({ length: 10 }, () => 'a'.repeat(300)) } })).status).toBe(201);
    expect((await platform.call('POST', dataPath(typeId), { token, body: { text: 'a'.repeat(200_000) } })).status).toBe(201);
  });

  it('refuses such a pattern when a type is patched, and keeps the type as it was', async () => {
    const typeId = await createType({ name: 'Patched', schema: { fields: { code: { type: 'string', pattern: '^[a-z]+$' } } } });
    const response = await platform.call('PATCH', `${typesPath()}/${typeId}`, { token, body: { modifier: { $set: { 'schema.properties.code.pattern': '^(a)\\1$' } }, baseRevision: 0 } });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('schema.properties.code.pattern');
    expect((await platform.call('GET', `${typesPath()}/${typeId}`, { token })).body).toMatchObject({ revision: 0, schema: { properties: { code: { pattern: '^[a-z]+$' } } } });
  });
});

describe('schema validation time budget', () => {
  it('refuses a document whose validation takes longer than the budget with 422 naming the field, stores nothing, and takes a quick one', async () => {
    // Each entry differs from the others only at its first element, which a deep comparison reaches
    // last; every element of the list is the last entry: valid, after 249 long comparisons each.
    const entry = (first: number) => [first, ...Array.from({ length: 249 }, () => 1)];
    const typeId = await createType({ name: 'Slow to check', schema: { type: 'object', properties: { list: { type: 'array', items: { enum: Array.from({ length: 250 }, (_, index) => entry(index + 2)) } } } } });
    const slowList = Array.from({ length: 400 }, () => entry(251));
    const slow = await platform.call('POST', dataPath(typeId), { token, body: { list: slowList } });
    expect(slow.status, JSON.stringify(slow.body).slice(0, 300)).toBe(422);
    expect(slow.body).toMatchObject({ code: 'DATA_VALIDATION_TOO_SLOW', details: { field: expect.stringMatching(/^list\.\d+$/), budgetMs: 50 } });
    expect((await platform.call('GET', dataPath(typeId), { token })).body.items).toEqual([]);
    const quick = await createDocument(typeId, { list: [entry(2)] });
    const patched = await platform.call('PATCH', `${dataPath(typeId)}/${quick.id}`, { token, body: { modifier: { $set: { list: slowList } }, baseRevision: 0 } });
    expect(patched.status).toBe(422);
    expect(patched.body.code).toBe('DATA_VALIDATION_TOO_SLOW');
    expect((await platform.call('GET', `${dataPath(typeId)}/${quick.id}`, { token })).body).toMatchObject({ revision: 0, list: [entry(2)] });
  });
});

describe('bounded documents', () => {
  it('refuses an array index beyond the limit at once, naming the field, and writes nothing', async () => {
    const typeId = await createType({ name: 'Tagged' });
    const document = await createDocument(typeId, { tags: [] });
    const { result, ms } = await timed(() => platform.call('PATCH', `${dataPath(typeId)}/${document.id}`, { token, body: { modifier: { $set: { 'tags.10000000': 1 } }, baseRevision: 0 } }));
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ code: 'DATA_ARRAY_TOO_LONG', error: expect.stringContaining('tags') });
    expect(ms).toBeLessThan(1000);
    expect((await platform.call('GET', `${dataPath(typeId)}/${document.id}`, { token })).body).toMatchObject({ tags: [], revision: 0 });
  });

  it('refuses a modifier adding more than 10,000 array elements past the arrays’ ends in all, naming the field, and writes nothing (PATCH and bulk)', async () => {
    const typeId = await createType({ name: 'Many lists' });
    const document = await createDocument(typeId, Object.fromEntries(Array.from({ length: 499 }, (_, index) => [`a${index}`, []])));
    // Each index alone is within the array limit; together they would add 4,990,000 nulls.
    const farWrites = { $set: Object.fromEntries(Array.from({ length: 499 }, (_, index) => [`a${index}.9999`, 1])) };
    const patched = await platform.call('PATCH', `${dataPath(typeId)}/${document.id}`, { token, body: { modifier: farWrites, baseRevision: 0 } });
    expect(patched.status).toBe(400);
    expect(patched.body).toMatchObject({ code: 'DATA_ARRAY_GROWTH_TOO_LARGE', error: expect.stringContaining('a0'), details: { field: 'a0', limit: 10_000, elements: 4_990_000 } });
    const bulk = await platform.call('POST', `${dataPath(typeId)}/bulk`, { token, body: { operations: Array.from({ length: 3 }, () => ({ op: 'patch', id: document.id, modifier: farWrites, baseRevision: 0 })) } });
    expect(bulk.body.results.map((result: { status: number; body: { code: string } }) => [result.status, result.body.code])).toEqual(Array.from({ length: 3 }, () => [400, 'DATA_ARRAY_GROWTH_TOO_LARGE']));
    expect((await platform.call('GET', `${dataPath(typeId)}/${document.id}`, { token })).body).toMatchObject({ a0: [], a498: [], revision: 0 });

    const atLimit = await platform.call('PATCH', `${dataPath(typeId)}/${document.id}`, { token, body: { modifier: { $set: { 'a0.4999': 1, 'a1.4999': 1 } }, baseRevision: 0 } });
    expect(atLimit.status).toBe(200);
    expect([atLimit.body.a0.length, atLimit.body.a1.length]).toEqual([5_000, 5_000]);
    // A stale base is refused the same way, before its conflict is worked out (the rebase would apply the modifier).
    const stale = await platform.call('PATCH', `${dataPath(typeId)}/${document.id}`, { token, body: { modifier: farWrites, baseRevision: 0 } });
    expect(stale).toMatchObject({ status: 400, body: { code: 'DATA_ARRAY_GROWTH_TOO_LARGE' } });
  });

  it('checks every array of the state after the modifier and of a created document', async () => {
    const typeId = await createType({ name: 'Lists' });
    const document = await createDocument(typeId, { list: { items: [] } });
    const tooMany = Array.from({ length: 10_001 }, (_, i) => i);
    const pushed = await platform.call('PATCH', `${dataPath(typeId)}/${document.id}`, { token, body: { modifier: { $push: { 'list.items': { $each: tooMany } } }, baseRevision: 0 } });
    expect(pushed.status).toBe(400);
    expect(pushed.body).toMatchObject({ code: 'DATA_ARRAY_TOO_LONG', error: expect.stringContaining('list.items') });
    const atLimit = await platform.call('PATCH', `${dataPath(typeId)}/${document.id}`, { token, body: { modifier: { $push: { 'list.items': { $each: tooMany.slice(1) } } }, baseRevision: 0 } });
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.list.items).toHaveLength(10_000);

    const created = await platform.call('POST', dataPath(typeId), { token, body: { rows: tooMany } });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ code: 'DATA_ARRAY_TOO_LONG', error: expect.stringContaining('rows') });
  });

  it('refuses a write that would make the stored document larger than 1 MiB, naming the field it grew', async () => {
    const typeId = await createType({ name: 'Large' });
    const chunk = 'x'.repeat(250_000);
    const document = await createDocument(typeId, { a: chunk });
    for (const [revision, field] of ['b', 'c', 'd'].entries()) {
      const grown = await platform.call('PATCH', `${dataPath(typeId)}/${document.id}`, { token, body: { modifier: { $set: { [field]: chunk } }, baseRevision: revision } });
      expect(grown.status).toBe(200);
    }
    const tooLarge = await platform.call('PATCH', `${dataPath(typeId)}/${document.id}`, { token, body: { modifier: { $set: { e: chunk } }, baseRevision: 3 } });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body).toMatchObject({ code: 'DATA_DOCUMENT_TOO_LARGE', error: expect.stringContaining('e') });
    expect(tooLarge.body.details).toMatchObject({ field: 'e', limit: 1_048_576 });
    const stored = await platform.call('GET', `${dataPath(typeId)}/${document.id}`, { token });
    expect(stored.body.revision).toBe(3);
    expect(stored.body.e).toBeUndefined();
  });

  it('never applies an unchecked modifier when baseRevision is ahead and another write catches up', async () => {
    // The real embedded store, with one pause: a write setting rating 99 waits at the store until
    // released, so the catch-up write lands between its read and its guarded update every time.
    const dataDir = await mkdtemp(join(tmpdir(), 'stale-base-'));
    const store = await createEmbeddedStore({ dataDir, fsync: false });
    const held = { reached: false, release: () => {} };
    const gate = new Promise<void>((resolve) => (held.release = resolve));
    const paused: DocumentStore = Object.assign(Object.create(store) as DocumentStore, {
      collection: <T extends StoredDocument>(name: string): Collection<T> => {
        const collection = store.collection<T>(name);
        return Object.assign(Object.create(collection) as Collection<T>, {
          updateOne: async (filter: Filter, modifier: UpdateModifier, options?: { upsert?: boolean }) => {
            if (JSON.stringify(modifier).includes('"rating":99')) {
              held.reached = true;
              await gate;
            }
            return collection.updateOne(filter, modifier, options);
          },
        });
      },
    });
    const racing = await startTestGateway({ services: [dataService], store: paused });
    try {
      const racingToken = await racing.signIn('owner');
      const racingProject = await racing.seedProject({ ownerId: 'owner' });
      const types = `/api/projects/${racingProject}/types`;
      expect((await racing.call('POST', types, { token: racingToken, body: { id: 'rated', name: 'Rated', schema: { fields: { rating: { type: 'integer', maximum: 5 } } } } })).status).toBe(201);
      const document = (await racing.call('POST', `${types}/rated/data`, { token: racingToken, body: { rating: 1 } })).body;
      const path = `${types}/rated/data/${document.id}`;
      const ahead = racing.call('PATCH', path, { token: racingToken, body: { modifier: { $set: { rating: 99 } }, baseRevision: 1 } });
      let answered = false;
      void ahead.then(() => (answered = true));
      await expect.poll(() => held.reached || answered).toBe(true);
      expect((await racing.call('PATCH', path, { token: racingToken, body: { modifier: { $set: { rating: 2 } }, baseRevision: 0 } })).status).toBe(200);
      held.release();
      expect((await ahead).status).toBe(409);
      expect((await racing.call('GET', path, { token: racingToken })).body).toMatchObject({ rating: 2, revision: 1 });
    } finally {
      held.release();
      await racing.close();
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('holds the actions executor to the same limits (updateDocumentAs)', async () => {
    const typeId = await createType({ name: 'Executed' });
    const document = await createDocument(typeId, { tags: [] });
    const write = updateDocumentAs(dataDeps(platform.context), { projectId, typeId, id: document.id, modifier: { $set: { 'tags.10000000': 1 } }, baseRevision: 0, userId: 'owner' });
    await expect(write).rejects.toThrow(AppError);
    await expect(write).rejects.toMatchObject({ code: 'DATA_ARRAY_TOO_LONG' });
  });
});

describe('modifiers that would corrupt or break a document', () => {
  const patch = (typeId: string, id: string, body: Record<string, unknown>, as = token) => platform.call('PATCH', `${dataPath(typeId)}/${id}`, { token: as, body });

  it('refuses a long dotted path before applying it, and a write nesting the document past its depth limit; the type stays readable', async () => {
    const typeId = await createType({ name: 'Walls' });
    const document = await createDocument(typeId, { text: 'x' });
    const path = (segments: number) => Array.from({ length: segments }, () => 'a').join('.');
    const long = await patch(typeId, document.id, { modifier: { $set: { [path(3_900)]: 1 } }, baseRevision: 0 });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'DATA_INVALID_MODIFIER', error: expect.stringContaining('segments') });

    // 50 segments and a value 13 levels deep: each within its own limit, together 63 levels.
    let value: Record<string, unknown> = { leaf: 1 };
    for (let level = 1; level < 13; level += 1) value = { b: value };
    const deep = await patch(typeId, document.id, { modifier: { $set: { [path(50)]: value } }, baseRevision: 0 });
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({ code: 'DATA_DOCUMENT_TOO_DEEP', details: { limit: 61 } });

    expect((await patch(typeId, document.id, { modifier: { $set: { [path(40)]: value } }, baseRevision: 0 })).status).toBe(200);
    const list = await platform.call('GET', `${dataPath(typeId)}?updatedAt=0`, { token });
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
  });

  it('refuses an $inc or $mul past the range of a double instead of storing null', async () => {
    const typeId = await createType({ name: 'Counters' });
    const document = await createDocument(typeId, { n: 1e308 });
    for (const modifier of [{ $inc: { n: 1e308 } }, { $mul: { n: 10 } }]) {
      const answer = await patch(typeId, document.id, { modifier, baseRevision: 0 });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'DATA_NUMBER_OUT_OF_RANGE', details: { field: 'n' } });
    }
    expect((await platform.call('GET', `${dataPath(typeId)}/${document.id}`, { token })).body).toMatchObject({ n: 1e308, revision: 0 });
  });

  it('answers 400, not 500, for a modifier that cannot apply, whether sent on the current revision or an old one (PATCH and bulk)', async () => {
    const typeId = await createType({ name: 'Meters' });
    const document = await createDocument(typeId, { label: 'a', obj: { k: 1 } });
    expect((await patch(typeId, document.id, { modifier: { $set: { label: 'b' } }, baseRevision: 0 })).status).toBe(200);
    const invalid = [{ $set: { label: 'c' }, $unset: { label: '' } }, { $set: { a: 1, 'a.b': 2 } }, { $rename: { 'obj.k': 'obj.k.z' } }];
    for (const baseRevision of [1, 0]) {
      for (const modifier of invalid) {
        const answer = await patch(typeId, document.id, { modifier, baseRevision });
        expect({ modifier, baseRevision, status: answer.status, code: answer.body.code }).toEqual({ modifier, baseRevision, status: 400, code: 'DATA_INVALID_MODIFIER' });
      }
    }
    const bulk = await platform.call('POST', `${dataPath(typeId)}/bulk`, { token, body: { operations: invalid.map((modifier) => ({ op: 'patch', id: document.id, modifier, baseRevision: 0 })) } });
    expect(bulk.body.results.map((result: { status: number }) => result.status)).toEqual([400, 400, 400]);
    expect((await platform.call('GET', `${dataPath(typeId)}/${document.id}`, { token })).body).toMatchObject({ label: 'b', obj: { k: 1 }, revision: 1 });
  });

  it('refuses a $rename out of or into an array element, as MongoDB does', async () => {
    const typeId = await createType({ name: 'Tags' });
    const document = await createDocument(typeId, { title: 't', tags: ['a', 'b'] });
    for (const rename of [{ title: 'tags.5' }, { 'tags.0': 'first' }]) {
      const answer = await patch(typeId, document.id, { modifier: { $rename: rename }, baseRevision: 0 });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'DATA_INVALID_MODIFIER', error: expect.stringContaining('array element') });
    }
    expect((await platform.call('GET', `${dataPath(typeId)}/${document.id}`, { token })).body).toMatchObject({ title: 't', tags: ['a', 'b'], revision: 0 });
  });

  it('tells a member creating an id they may not read only that it is taken, not whether it was deleted', async () => {
    const typeId = await createType({ name: 'Hidden' });
    const member = await platform.signIn('member');
    const hidden = await createDocument(typeId, { id: 'hidden-one', access: { read: { userIds: ['owner'] } } });
    expect((await platform.call('DELETE', `${dataPath(typeId)}/${hidden.id}`, { token })).status).toBe(200);
    const taken = await platform.call('POST', dataPath(typeId), { token: member, body: { id: 'hidden-one', n: 1 } });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'DATA_DUPLICATE_ID' });
    expect(taken.body.details).toEqual({ id: 'hidden-one' });
    const owners = await platform.call('POST', dataPath(typeId), { token, body: { id: 'hidden-one', n: 1 } });
    expect(owners.body.details).toEqual({ id: 'hidden-one', deleted: true });
  });
});

describe('references in type schemas', () => {
  it('refuses references that refer to each other alone when the type is saved, and checks a tree (a reference through an item) all the way down', async () => {
    const cycle = { type: 'object', properties: { x: { $ref: '#/$defs/a' } }, $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } };
    const refused = await platform.call('POST', typesPath(), { token, body: { id: 'cyclic', name: 'Cyclic', schema: cycle } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'DATA_SCHEMA_VIOLATION', error: expect.stringContaining('schema.properties.x.$ref') });
    expect((await platform.call('GET', `${typesPath()}/cyclic`, { token })).status).toBe(404);
    expect((await platform.call('GET', `/api/projects/${projectId}/types.d.ts`, { token })).status).toBe(200);

    const tree = await createType({ name: 'Tree', schema: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } } } });
    expect((await platform.call('POST', dataPath(tree), { token, body: { name: 'root', children: [{ name: 'leaf', children: [] }] } })).status).toBe(201);
    const deep = await platform.call('POST', dataPath(tree), { token, body: { name: 'root', children: [{ name: 'leaf', children: [{ name: 7 }] }] } });
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({ code: 'DATA_SCHEMA_VIOLATION', details: { problems: [{ field: 'children.0.children.0.name' }] } });
    const declarations = await platform.call('GET', `/api/projects/${projectId}/types.d.ts?types=${tree}`, { token });
    expect(declarations.status).toBe(200);
    expect(String(declarations.body)).toContain('children?:');
  });
});

describe('reserved fields', () => {
  it.each(['access', 'deleteOn', 'deleteOnPreference', 'latestEventType', 'latestEventAt', 'revision', 'createdAt'])('refuses %s as a schema field name', async (name) => {
    const response = await platform.call('POST', typesPath(), { token, body: { name: 'Reserved', schema: { fields: { [name]: { type: 'number' } } } } });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(`schema.fields.${name}`);
  });

  it('refuses server-set fields from member creates and patches, and keeps access for the project owner', async () => {
    const typeId = await createType({ name: 'Visitors' });
    for (const field of ['deleteOn', 'deleteOnPreference', 'latestEventType', 'latestEventAt']) {
      const created = await platform.call('POST', dataPath(typeId), { token, body: { name: 'x', [field]: 1 } });
      expect({ field, status: created.status }).toEqual({ field, status: 400 });
      expect(created.body.error).toContain(field);
    }
    const document = await createDocument(typeId, { name: 'x', access: { read: { userIds: ['owner'] } } });
    const patched = await platform.call('PATCH', `${dataPath(typeId)}/${document.id}`, { token, body: { modifier: { $set: { deleteOn: 0 } }, baseRevision: 0 } });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toContain('deleteOn');
    const access = await platform.call('PATCH', `${dataPath(typeId)}/${document.id}`, { token, body: { modifier: { $set: { 'access.read.userIds': ['owner', 'member'] } }, baseRevision: 0 } });
    expect(access.status).toBe(200);
    expect(access.body.access).toEqual({ read: { userIds: ['owner', 'member'] } });
  });

  it("refuses a created document's top-level field name holding '.', writes nothing, and keeps dotted keys inside values", async () => {
    const typeId = await createType({ name: 'Dotted' });
    const refused = await platform.call('POST', dataPath(typeId), { token, body: { id: 'dotted', 'home.title': 'Hi' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'DATA_INVALID_MODIFIER', details: { problems: [{ path: 'body.home.title', message: "a field name may not contain '.'; nest an object instead" }] } });
    expect((await platform.call('GET', `${dataPath(typeId)}/dotted`, { token })).status).toBe(404);
    const nested = await createDocument(typeId, { id: 'nested', strings: { 'home.title': 'Hi' } });
    expect(nested.strings).toEqual({ 'home.title': 'Hi' });
    expect((nested.changes as Array<{ modifier: unknown }>)[0]?.modifier).toEqual({ $set: { strings: { 'home.title': 'Hi' } } });
  });

  it('refuses sample data from a stored schema that names a reserved field', async () => {
    await storeLegacyType('legacy-reserved', { fields: { deleteOn: { type: 'timestamp' }, name: { type: 'string' } } });
    for (const method of ['GET', 'POST'] as const) {
      const response = await platform.call(method, `/api/projects/${projectId}/types/legacy-reserved/sample-data`, { token, ...(method === 'POST' ? { body: { count: 1 } } : {}) });
      expect({ method, status: response.status }).toEqual({ method, status: 400 });
      expect(response.body).toMatchObject({ code: 'DATA_TYPE_SCHEMA_INVALID', error: expect.stringContaining('deleteOn') });
    }
    expect((await platform.call('GET', dataPath('legacy-reserved'), { token })).body.items).toEqual([]);
  });

  const memberOnly = { read: { userIds: ['member'] } };
  it.each([
    ['requires it through additionalProperties', { type: 'object', properties: { name: { type: 'string' } }, required: ['name', 'access'], additionalProperties: { const: memberOnly } }],
    ['declares it behind the root $ref', { type: 'object', $ref: '#/$defs/doc', $defs: { doc: { type: 'object', properties: { access: { const: memberOnly } }, required: ['access'] } } }],
    ['enumerates the whole document', { type: 'object', enum: [{ name: 'x', access: memberOnly }] }],
  ])('refuses sample data that would carry access when a type updater\'s schema %s, and stores nothing', async (_how, schema) => {
    const member = await platform.signIn('member');
    const typeId = await createType({ name: 'Ledger', schema: { type: 'object', properties: { name: { type: 'string' } } }, access: { update: { userIds: ['member'] } } });
    const patched = await platform.call('PATCH', `${typesPath()}/${typeId}`, { token: member, body: { modifier: { $set: { schema } }, baseRevision: 0 } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const direct = await platform.call('POST', dataPath(typeId), { token: member, body: { name: 'x', access: memberOnly } });
    expect(direct.status).toBe(400);

    for (const method of ['POST', 'GET'] as const) {
      const response = await platform.call(method, `/api/projects/${projectId}/types/${typeId}/sample-data`, { token: member, ...(method === 'POST' ? { body: { count: 2 } } : {}) });
      expect({ method, status: response.status }).toEqual({ method, status: 400 });
      expect(response.body).toMatchObject({ code: 'DATA_TYPE_SCHEMA_INVALID', error: expect.stringContaining('access'), details: { field: 'schema' } });
    }
    expect((await platform.call('GET', dataPath(typeId), { token })).body.items).toEqual([]);
  });
});

describe('schema bounds and sample data', () => {
  it.each([
    ['rating.minimum', { rating: { type: 'integer', minimum: 10, maximum: 1 } }],
    ['rating.minimum', { rating: { type: 'integer', minimum: 1.2, maximum: 1.8 } }],
    ['name.minLength', { name: { type: 'string', minLength: 20, maxLength: 10 } }],
    ['name.minLength', { name: { type: 'string', minLength: 1_000_000 } }],
    ['name.maxLength', { name: { type: 'string', maxLength: 100_001 } }],
  ])('refuses an unsatisfiable or oversized schema, naming %s', async (field, fields) => {
    const response = await platform.call('POST', typesPath(), { token, body: { name: 'Bounds', schema: { fields } } });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(`schema.fields.${field}`);
  });

  it('answers 400 instead of 500 for a stored schema whose minimum exceeds its maximum', async () => {
    await storeLegacyType('legacy-bounds', { fields: { rating: { type: 'integer', minimum: 10, maximum: 1 } } });
    const response = await platform.call('GET', `/api/projects/${projectId}/types/legacy-bounds/sample-data`, { token });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'DATA_TYPE_SCHEMA_INVALID', error: expect.stringContaining('rating.minimum') });
  });

  it('caps the sample-data answer and stores nothing when a request would exceed it', async () => {
    const typeId = await createType({ name: 'Essays', schema: { fields: { essay: { type: 'string', minLength: 100_000 } } } });
    const { result, ms } = await timed(() => platform.call('GET', `/api/projects/${projectId}/types/${typeId}/sample-data?count=100`, { token }));
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ code: 'DATA_SAMPLE_DATA_TOO_LARGE', details: { limit: 1_048_576 } });
    expect(ms).toBeLessThan(2000);
    const stored = await platform.call('POST', `/api/projects/${projectId}/types/${typeId}/sample-data`, { token, body: { count: 100 } });
    expect(stored.status).toBe(400);
    expect((await platform.call('GET', dataPath(typeId), { token })).body.items).toEqual([]);
    const few = await platform.call('GET', `/api/projects/${projectId}/types/${typeId}/sample-data?count=3`, { token });
    expect(few.status).toBe(200);
    for (const item of few.body.items) expect(item.essay.length).toBeGreaterThanOrEqual(100_000);
  });
});

describe('no-op modifiers', () => {
  it('answers the unchanged document without a revision, a change or an event when nothing changes', async () => {
    const typeId = await createType({ name: 'Quiet' });
    const document = await createDocument(typeId, { title: 'Same', count: 2 });
    const path = `${dataPath(typeId)}/${document.id}`;
    for (const modifier of [{ $set: { title: 'Same' } }, { $unset: { missing: '' } }, { $max: { count: 1 } }]) {
      const response = await platform.call('PATCH', path, { token, body: { modifier, baseRevision: 0 } });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ title: 'Same', count: 2, revision: 0 });
      expect(response.body.changes).toHaveLength(1);
    }
    const changed = await platform.call('PATCH', path, { token, body: { modifier: { $set: { title: 'Other' } }, baseRevision: 0 } });
    expect(changed.body.revision).toBe(1);
    await expect.poll(() => events.filter((event) => event.data.entityId === document.id).map((event) => event.data.kind)).toEqual(['created', 'updated']);
  });

  it.each([
    ['$mul', { $mul: { title: 2 } }],
    ['$inc', { $inc: { title: 1 } }],
    ['$push', { $push: { title: 'x' } }],
  ])('refuses %s on a field of the wrong type with 400 naming it, and writes nothing', async (_operator, modifier) => {
    const typeId = await createType({ name: 'Typed values' });
    const document = await createDocument(typeId, { title: 'text' });
    const response = await platform.call('PATCH', `${dataPath(typeId)}/${document.id}`, { token, body: { modifier, baseRevision: 0 } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'DATA_INVALID_MODIFIER', error: expect.stringContaining('title') });
    expect((await platform.call('GET', `${dataPath(typeId)}/${document.id}`, { token })).body).toMatchObject({ title: 'text', revision: 0 });
  });
});

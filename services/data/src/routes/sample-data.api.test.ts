import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateDocument } from '@platform/documents';
import { dataService } from '../app';

let platform: TestGateway;
let projectId: string;
let token: string;
let member: string;

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService] });
  token = await platform.signIn('owner');
  member = await platform.signIn('member');
  projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'member' }] });
});

afterAll(async () => {
  await platform?.close();
});

const typesPath = () => `/api/projects/${projectId}/types`;
const samplePath = (typeId: string) => `/api/projects/${projectId}/types/${typeId}/sample-data`;
const dataPath = (typeId: string) => `/api/projects/${projectId}/types/${typeId}/data`;

async function createType(id: string, schema: Record<string, unknown>): Promise<string> {
  const response = await platform.call('POST', typesPath(), { token, body: { id, name: id, schema } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as string;
}

async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await call();
  return { result, ms: performance.now() - started };
}

/** A sample-data GET by a member, with /api/health asked while it runs: both must answer quickly. */
async function sampleWhileHealthy(typeId: string) {
  const sample = timed(() => platform.call('GET', `${samplePath(typeId)}?count=1`, { token: member }));
  const health = await timed(() => platform.call('GET', '/api/health'));
  const { result, ms } = await sample;
  expect(health.result.status).toBe(200);
  expect(health.ms).toBeLessThan(3000);
  expect(ms).toBeLessThan(3000);
  return result;
}

describe('sample data size estimate', () => {
  it.each([
    ['an untyped array (its type inferred from minItems)', { x: { minItems: 20_000, items: { type: 'string', minLength: 1_000 } } }],
    ['a type union with an array', { x: { type: ['boolean', 'array'], minItems: 20_000, items: { type: 'string', minLength: 1_000 } } }],
    [
      'an array nested deeper than five levels',
      { x: [1, 2, 3, 4, 5, 6].reduce<Record<string, unknown>>((items) => ({ type: 'array', minItems: 1, items }), { type: 'array', minItems: 20_000, items: { type: 'string', minLength: 1_000 } }) },
    ],
  ])('refuses before generating when %s would pass the answer cap, and the process stays up', async (_how, properties) => {
    const typeId = await createType(`big-${Math.random().toString(36).slice(2, 8)}`, { type: 'object', properties, required: Object.keys(properties) });
    const result = await sampleWhileHealthy(typeId);
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ code: 'DATA_SAMPLE_DATA_TOO_LARGE' });
    expect((await platform.call('GET', '/api/health')).status).toBe(200);
  });

  it('refuses the out-of-memory schema (100,000 untyped items of 100,000 characters) at once', async () => {
    const typeId = await createType('huge', { type: 'object', properties: { x: { minItems: 100_000, items: { type: 'string', minLength: 100_000 } } }, required: ['x'] });
    const result = await sampleWhileHealthy(typeId);
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ code: 'DATA_SAMPLE_DATA_TOO_LARGE' });
    const stored = await platform.call('POST', samplePath(typeId), { token, body: { count: 1 } });
    expect(stored.status).toBe(400);
    expect((await platform.call('GET', dataPath(typeId), { token })).body.items).toEqual([]);
  });

  it('sizes a schema whose properties all refer back to their object in linear time', async () => {
    const properties = Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`p${index}`, { $ref: '#/$defs/n' }]));
    const typeId = await createType('fanout', { type: 'object', properties: { root: { $ref: '#/$defs/n' } }, $defs: { n: { type: 'object', properties } } });
    const result = await sampleWhileHealthy(typeId);
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ code: 'DATA_SAMPLE_DATA_TOO_LARGE' });
  });
});

describe('sample data validity', () => {
  it.each([
    ['a pattern its generator cannot make long enough', 'code', { code: { type: 'string', pattern: '^[a-z]+$', minLength: 12 } }],
    ['a date longer than a date', 'due', { due: { type: 'string', format: 'date', minLength: 12 } }],
  ])('refuses sample data for %s, naming the field, and stores nothing', async (_how, field, properties) => {
    const typeId = await createType(`invalid-${field}`, { type: 'object', properties, required: [field] });
    for (const method of ['GET', 'POST'] as const) {
      const response = await platform.call(method, samplePath(typeId), { token, ...(method === 'POST' ? { body: { count: 3, seed: 1 } } : {}) });
      expect({ method, status: response.status }).toEqual({ method, status: 400 });
      expect(response.body).toMatchObject({ code: 'DATA_SAMPLE_DATA_INVALID', error: expect.stringContaining(field), details: { field } });
    }
    expect((await platform.call('GET', dataPath(typeId), { token })).body.items).toEqual([]);
  });

  it('refuses a schema whose documents would carry field names POST .../data refuses, and stores nothing', async () => {
    // A whole-document `const` or `enum` spells the document's own field names.
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['dotted-const', { type: 'object', const: { 'a.b': 1 } }, 'a.b'],
      ['underscore-enum', { type: 'object', enum: [{ _internal: true }] }, '_internal'],
    ];
    for (const [id, schema, name] of cases) {
      const typeId = await createType(id, schema);
      const document = (schema.const ?? (schema.enum as unknown[])[0]) as Record<string, unknown>;
      expect((await platform.call('POST', dataPath(typeId), { token, body: document })).status, 'POST .../data refuses the same document').toBe(400);
      for (const method of ['GET', 'POST'] as const) {
        const response = await platform.call(method, samplePath(typeId), { token, ...(method === 'POST' ? { body: { count: 2, seed: 1 } } : {}) });
        expect([method, response.status, response.body.code]).toEqual([method, 400, 'DATA_TYPE_SCHEMA_INVALID']);
        expect(response.body.error).toContain(name);
      }
      expect((await platform.call('GET', dataPath(typeId), { token })).body.items).toEqual([]);
    }
    // A type without a schema makes empty documents, which have no names to refuse.
    const open = await createType('no-schema', { type: 'object' });
    expect((await platform.call('POST', samplePath(open), { token, body: { count: 3, seed: 1 } })).status).toBe(201);
  });

  it('stores only documents the schema accepts, and a stored sample can be patched', async () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        step: { type: 'integer', multipleOf: 0.3, minimum: 0, maximum: 100 },
        tree: { $ref: '#/$defs/node' },
      },
      required: ['name', 'step'],
      $defs: { node: { type: 'object', properties: { label: { type: 'string' }, child: { $ref: '#/$defs/node' } } } },
    };
    const typeId = await createType('valid-samples', schema);
    const response = await platform.call('POST', samplePath(typeId), { token, body: { count: 10, seed: 7 } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const items = response.body.items as Array<Record<string, unknown> & { id: string; revision: number }>;
    expect(items).toHaveLength(10);
    for (const item of items) {
      const { id, revision, createdAt, updatedAt, changes, access, ...fields } = item;
      expect(validateDocument(schema, fields)).toEqual([]);
      expect(Number.isInteger(fields.step)).toBe(true);
    }
    const [first] = items;
    const patched = await platform.call('PATCH', `${dataPath(typeId)}/${first?.id}`, { token, body: { modifier: { $set: { name: 'Renamed' } }, baseRevision: first?.revision } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.name).toBe('Renamed');
    const again = await platform.call('GET', `${samplePath(typeId)}?count=10&seed=7`, { token });
    expect(again.status).toBe(200);
    for (const item of again.body.items) expect(validateDocument(schema, item)).toEqual([]);
  });
});

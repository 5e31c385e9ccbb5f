import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataDeps, TypeDirectory } from '@platform/documents';
import { dataService } from '../app';

let platform: TestGateway;
let projectId: string;
let token: string;

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService] });
  token = await platform.signIn('owner');
  projectId = await platform.seedProject({ ownerId: 'owner' });
});

afterAll(async () => {
  await platform?.close();
});

const typesPath = () => `/api/projects/${projectId}/types`;
const dataPath = (typeId: string) => `/api/projects/${projectId}/types/${typeId}/data`;

const contactSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    email: { type: 'string', format: 'email' },
    address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  required: ['name'],
};

describe('types with a JSON Schema', () => {
  it('stores the schema, answers it, and validates creates and patches with it, naming the field', async () => {
    const created = await platform.call('POST', typesPath(), { token, body: { id: 'contacts', name: 'Contacts', schema: contactSchema } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await platform.call('GET', `${typesPath()}/contacts/schema`, { token })).body.schema).toEqual(contactSchema);

    const nested = await platform.call('POST', dataPath('contacts'), { token, body: { name: 'Ada', address: {} } });
    expect(nested.status).toBe(400);
    expect(nested.body).toMatchObject({ code: 'DATA_SCHEMA_VIOLATION', error: 'Invalid address.city: is required' });
    const format = await platform.call('POST', dataPath('contacts'), { token, body: { name: 'Ada', email: 'not an address' } });
    expect(format.body).toMatchObject({ code: 'DATA_SCHEMA_VIOLATION', error: expect.stringContaining('email') });

    const document = await platform.call('POST', dataPath('contacts'), { token, body: { name: 'Ada', email: 'ada@example.org', address: { city: 'London' } } });
    expect(document.status).toBe(201);
    const patched = await platform.call('PATCH', `${dataPath('contacts')}/${document.body.id}`, { token, body: { modifier: { $unset: { name: '' } }, baseRevision: 0 } });
    expect(patched.body).toMatchObject({ code: 'DATA_SCHEMA_VIOLATION', error: 'Invalid name: is required' });
    expect((await platform.call('GET', `${dataPath('contacts')}/${document.body.id}`, { token })).body).toMatchObject({ name: 'Ada', revision: 0 });
  });

  it.each([
    ['a remote $ref', { type: 'object', properties: { a: { $ref: 'https://example.org/a.json' } } }, 'schema.properties.a.$ref'],
    ['a keyword outside the subset', { type: 'object', properties: { a: { oneOf: [{ type: 'string' }] } } }, 'schema.properties.a'],
    ['a reserved field', { type: 'object', properties: { access: { type: 'object' } } }, 'schema.properties.access'],
  ])('refuses %s with 400 naming it, and creates nothing', async (_case, schema, field) => {
    const response = await platform.call('POST', typesPath(), { token, body: { id: 'refused', name: 'Refused', schema } });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(field);
    expect((await platform.call('GET', `${typesPath()}/refused`, { token })).status).toBe(404);
  });

  it('refuses a patch that makes the schema invalid and keeps it', async () => {
    await platform.call('POST', typesPath(), { token, body: { id: 'patched', name: 'Patched', schema: { type: 'object', properties: { n: { type: 'integer' } } } } });
    const response = await platform.call('PATCH', `${typesPath()}/patched`, { token, body: { modifier: { $set: { 'schema.properties.n.$ref': 'https://example.org/n.json' } }, baseRevision: 0 } });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('schema.properties.n.$ref');
    expect((await platform.call('GET', `${typesPath()}/patched`, { token })).body).toMatchObject({ revision: 0, schema: { properties: { n: { type: 'integer' } } } });
  });
});

describe('schemas with $defs and local $ref', () => {
  const addressSchema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $comment: 'addresses are shared by home and work',
    type: 'object',
    $defs: { address: { type: 'object', properties: { city: { type: 'string', minLength: 1 } }, required: ['city'] } },
    properties: { name: { type: 'string' }, home: { $ref: '#/$defs/address' } },
    required: ['name'],
  };

  it('are sent and answered as plain JSON Schema, stored without $ keys, and validate documents through the reference', async () => {
    const created = await platform.call('POST', typesPath(), { token, body: { id: 'people', name: 'People', schema: addressSchema } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.schema).toEqual(addressSchema);
    expect(created.body.changes[0].modifier.$set.schema).toEqual(addressSchema);
    expect((await platform.call('GET', `${typesPath()}/people`, { token })).body.schema).toEqual(addressSchema);
    expect((await platform.call('GET', `${typesPath()}/people/schema`, { token })).body.schema).toEqual(addressSchema);
    const pulled = await platform.call('GET', `${typesPath()}?updatedAt=0`, { token });
    expect(pulled.body.items.find((item: { id: string }) => item.id === 'people').schema).toEqual(addressSchema);
    const raw = await platform.context.store.collection(`tenant-${projectId}-types`).findById('people', { projection: { schema: 1 } });
    expect(JSON.stringify(raw)).not.toMatch(/"\$/);

    const broken = await platform.call('POST', dataPath('people'), { token, body: { name: 'Ada', home: { city: '' } } });
    expect(broken.body).toMatchObject({ code: 'DATA_SCHEMA_VIOLATION', error: expect.stringContaining('home.city') });
    expect((await platform.call('POST', dataPath('people'), { token, body: { name: 'Ada', home: { city: 'London' } } })).status).toBe(201);
  });

  it('change through PATCH paths and values inside the schema', async () => {
    await platform.call('POST', typesPath(), { token, body: { id: 'offices', name: 'Offices', schema: addressSchema } });
    const patched = await platform.call('PATCH', `${typesPath()}/offices`, {
      token,
      body: { modifier: { $set: { 'schema.properties.work': { $ref: '#/$defs/address' }, 'schema.$defs.address.properties.zip': { type: 'string', pattern: '^[0-9]{5}$' } }, $unset: { 'schema.$comment': '' } }, baseRevision: 0 },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const { $comment, ...withoutComment } = addressSchema;
    expect($comment).toBeDefined();
    const expected = {
      ...withoutComment,
      $defs: { address: { ...addressSchema.$defs.address, properties: { city: { type: 'string', minLength: 1 }, zip: { type: 'string', pattern: '^[0-9]{5}$' } } } },
      properties: { ...addressSchema.properties, work: { $ref: '#/$defs/address' } },
    };
    expect((await platform.call('GET', `${typesPath()}/offices/schema`, { token })).body.schema).toEqual(expected);
    const wrongZip = await platform.call('POST', dataPath('offices'), { token, body: { name: 'HQ', work: { city: 'Paris', zip: 'none' } } });
    expect(wrongZip.body).toMatchObject({ code: 'DATA_SCHEMA_VIOLATION', error: expect.stringContaining('work.zip') });
  });

  it('refuses a reference to a definition that does not exist, and $ keys outside a schema, changing nothing', async () => {
    const dangling = await platform.call('POST', typesPath(), { token, body: { id: 'dangling', name: 'Dangling', schema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } } } });
    expect(dangling.status).toBe(400);
    expect(dangling.body.error).toContain('schema');
    const operatorInName = await platform.call('POST', typesPath(), { token, body: { id: 'injected', name: 'Injected', title: { $gt: '' } } });
    expect(operatorInName.status).toBe(400);
    expect(operatorInName.body.error).toContain('body.title.$gt');
    for (const id of ['dangling', 'injected']) expect((await platform.call('GET', `${typesPath()}/${id}`, { token })).status).toBe(404);
    const operatorInDocument = await platform.call('POST', dataPath('people'), { token, body: { name: 'Ada', home: { $ref: '#/$defs/address', city: 'x' } } });
    expect(operatorInDocument.status).toBe(400);
    expect(operatorInDocument.body.error).toContain('body.home.$ref');
  });
});

describe('old-dialect schemas', () => {
  it('are accepted on input and stored as their JSON Schema', async () => {
    const created = await platform.call('POST', typesPath(), { token, body: { id: 'old-input', name: 'Old', schema: { fields: { title: { type: 'string', required: true }, due: { type: 'timestamp' } } } } });
    expect(created.status).toBe(201);
    expect(created.body.schema).toEqual({ type: 'object', properties: { title: { type: 'string' }, due: { type: ['integer', 'null'], description: 'Unix time in milliseconds' } }, required: ['title'] });
  });

  it('stored by an older server are read as JSON Schema, keep their verdicts, and are converted by the next write of the type', async () => {
    const legacy = { fields: { rating: { type: 'integer', maximum: 5, required: true } } };
    await dataDeps(platform.context).writer.create(TypeDirectory.typesScope(projectId), { name: 'Stored', syncType: 'remote', schema: legacy }, { userId: 'owner', id: 'stored-old' });
    const jsonSchema = { type: 'object', properties: { rating: { type: 'integer', maximum: 5 } }, required: ['rating'] };
    expect((await platform.call('GET', `${typesPath()}/stored-old/schema`, { token })).body.schema).toEqual(jsonSchema);
    expect((await platform.call('POST', dataPath('stored-old'), { token, body: { rating: 6 } })).body).toMatchObject({ code: 'DATA_SCHEMA_VIOLATION', error: expect.stringContaining('rating') });
    expect((await platform.call('POST', dataPath('stored-old'), { token, body: { rating: 5 } })).status).toBe(201);

    const renamed = await platform.call('PATCH', `${typesPath()}/stored-old`, { token, body: { modifier: { $set: { name: 'Renamed' } }, baseRevision: 0 } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', revision: 1, schema: jsonSchema });
    expect((await platform.call('POST', dataPath('stored-old'), { token, body: { rating: 6 } })).status).toBe(400);
  });
});

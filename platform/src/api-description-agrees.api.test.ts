import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceRegistry } from './service-registry';

/**
 * The API description declares what the server accepts, so clients and fuzzers generated from
 * /api/openapi.json send requests the server can take (schemathesis's "schema validation
 * mismatch": operations whose declared values the server refused). Each case is one value, checked
 * against the declared schema and sent to the server: both accept it or both refuse it.
 */

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; schema: object }>; requestBody?: { content: Record<string, { schema: object }> } }>>;
}

let platform: TestGateway;
let document: OpenApiDocument;
let owner: string;
let projectId: string;
let documentPath: string;
// The description is OpenAPI 3.0 (nullable, descriptions); formats are declared beside their patterns.
const ajv = new Ajv({ strict: false, validateFormats: false });

beforeAll(async () => {
  platform = await startTestGateway({ services: Object.values(serviceRegistry) });
  document = (await (await fetch(`${platform.url}/api/openapi.json`)).json()) as OpenApiDocument;
  owner = await platform.signIn('owner');
  projectId = await platform.seedProject({ ownerId: 'owner' });
  const type = await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner, body: { id: 'notes', name: 'Notes' } });
  expect(type.status).toBe(201);
  const created = await platform.call('POST', `/api/projects/${projectId}/types/notes/data`, { token: owner, body: { title: 'first' } });
  documentPath = `/api/projects/${projectId}/types/notes/data/${created.body.id}`;
});

afterAll(async () => {
  await platform?.close();
});

function bodySchema(path: string, method: string): object {
  const schema = document.paths[path]?.[method]?.requestBody?.content['application/json']?.schema;
  if (!schema) throw new Error(`no JSON body declared for ${method} ${path}`);
  return schema;
}

function parameterSchema(path: string, method: string, name: string): object {
  const schema = document.paths[path]?.[method]?.parameters?.find((parameter) => parameter.name === name)?.schema;
  if (!schema) throw new Error(`no parameter ${name} declared for ${method} ${path}`);
  return schema;
}

/** The schema without OpenAPI 3.0's `nullable`, which ajv takes only beside `type` (the description puts it beside `anyOf` too). */
function withoutNullable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutNullable);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== 'nullable').map(([key, value]) => [key, withoutNullable(value)]));
}

const declares = (schema: object, value: unknown) => ajv.validate(withoutNullable(schema) as object, value);
/** Whether the server took the request: any answer but a refusal of the request's own values (400, 414, 431). */
const serves = (status: number) => ![400, 414, 431].includes(status);

describe('the API description declares what the server accepts', () => {
  const bodies = [
    { route: ['/api/auth/register', 'post'], body: { email: 'not-an-address', password: 'long enough' }, field: 'email' },
    { route: ['/api/auth/register', 'post'], body: { email: 'new.user@example.org', password: 'long enough' } },
    { route: ['/api/auth/login', 'post'], body: { email: '   ', password: 'x' }, field: 'email' },
    { route: ['/api/auth/login', 'post'], body: { email: 'nobody@example.org', password: 'x' } },
    { route: ['/api/projects/{projectId}/members', 'post'], body: { userId: 'invitee', email: 'invitee@example.org' }, field: 'email' },
    { route: ['/api/projects/{projectId}/members', 'post'], body: { email: '' }, field: 'email' },
    { route: ['/api/projects/{projectId}/members', 'post'], body: { email: 'invitee@example.org' } },
    { route: ['/api/projects/{projectId}/domains', 'post'], body: { hostname: 'not a hostname' }, field: 'hostname' },
    { route: ['/api/projects/{projectId}/domains', 'post'], body: { hostname: 'Shop.Example.org.' } },
    { route: ['/api/projects/{projectId}/types', 'post'], body: { title: { en: 'No name' } }, field: 'name' },
    { route: ['/api/projects/{projectId}/types', 'post'], body: { name: 'Named' } },
    { route: ['/api/projects/{projectId}/types/{typeId}/data/{id}', 'patch'], body: { modifier: {}, baseRevision: 0 }, field: 'modifier' },
    { route: ['/api/projects/{projectId}/types/{typeId}/data/{id}', 'patch'], body: { modifier: { $where: { title: 'x' } }, baseRevision: 0 }, field: 'modifier' },
    { route: ['/api/projects/{projectId}/types/{typeId}/data/{id}', 'patch'], body: { modifier: { $set: {} }, baseRevision: 0 }, field: 'modifier' },
    { route: ['/api/projects/{projectId}/types/{typeId}/data/{id}', 'patch'], body: { modifier: { $set: { title: 'second' } }, baseRevision: 0 } },
  ] as const;

  it.each(bodies.map((testCase) => ({ ...testCase, name: `${testCase.route[1].toUpperCase()} ${testCase.route[0]} ${JSON.stringify(testCase.body)}` })))(
    '$name: the description and the server agree',
    async ({ route: [path, method], body, ...expected }) => {
      const field = 'field' in expected ? expected.field : undefined;
      const url = path.replace('{projectId}', projectId).replace('/types/{typeId}/data/{id}', documentPath.slice(`/api/projects/${projectId}`.length));
      const answer = await platform.call(method.toUpperCase(), url, { token: owner, body });
      expect({ declared: declares(bodySchema(path, method), body), served: serves(answer.status) }).toEqual({ declared: !field, served: !field });
      if (field) expect(answer.body.error).toContain(field);
    },
  );

  it('the owner-promotion token is declared as long as the router lets a path parameter be', async () => {
    const schema = parameterSchema('/api/admin/dev/platform-owner/{token}', 'get', 'token');
    for (const token of ['a'.repeat(100), 'a'.repeat(101)]) {
      const answer = await platform.call('GET', `/api/admin/dev/platform-owner/${token}`);
      expect({ length: token.length, declared: declares(schema, token), served: serves(answer.status) }).toEqual({ length: token.length, declared: token.length <= 100, served: token.length <= 100 });
    }
  });

  it('types.d.ts declares its list of type ids, no longer than a request line can carry', async () => {
    const schema = parameterSchema('/api/projects/{projectId}/types.d.ts', 'get', 'types');
    const tooLong = Array.from({ length: 1_000 }, (_, index) => `type-${index}`).join(',');
    for (const [types, accepted] of [['notes', true], ['notes,bad id', false], [tooLong, false]] as const) {
      const answer = await platform.call('GET', `/api/projects/${projectId}/types.d.ts?types=${encodeURIComponent(types)}`, { token: owner });
      expect({ types: types.slice(0, 20), declared: declares(schema, types), served: serves(answer.status) }).toEqual({ types: types.slice(0, 20), declared: accepted, served: accepted });
      if (!accepted) expect(answer.body.error).toContain('types');
    }
  });

  it('includeChanges takes true, false, 1 and 0 as declared, 1 meaning true', async () => {
    const schema = parameterSchema('/api/projects/{projectId}/types/{typeId}/data/{id}', 'get', 'includeChanges');
    for (const [value, changes] of [['true', true], ['1', true], ['false', false], ['0', false], ['yes', undefined]] as const) {
      const answer = await platform.call('GET', `${documentPath}?includeChanges=${value}`, { token: owner });
      expect({ value, declared: declares(schema, value), served: serves(answer.status) }).toEqual({ value, declared: changes !== undefined, served: changes !== undefined });
      if (changes === undefined) expect(answer.body.error).toContain('includeChanges');
      else expect(Array.isArray(answer.body.changes)).toBe(changes);
    }
  });

  it("the audit trail's page and limit are declared from 1, as the server reads them", async () => {
    for (const name of ['page', 'limit'] as const) {
      const schema = parameterSchema('/api/projects/{projectId}/audit-trail', 'get', name);
      for (const value of [0, 1, 20]) {
        const answer = await platform.call('GET', `/api/projects/${projectId}/audit-trail?${name}=${value}`, { token: owner });
        expect({ name, value, declared: declares(schema, value), served: serves(answer.status) }).toEqual({ name, value, declared: value > 0, served: value > 0 });
        if (value === 0) expect(answer.body.error).toContain(name);
      }
    }
  });

  it('agents declare their required name', () => {
    const schema = bodySchema('/api/projects/{projectId}/ai-agents', 'post');
    expect(declares(schema, { instructions: 'no name' })).toBe(false);
    expect(declares(schema, { name: 'Helper' })).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestResponse } from '@platform/gateway/testing';
import { startAiPlatform, type AiPlatform } from '../testing/ai-platform';

let ai: AiPlatform;
let owner: string;
let bob: string;

const contactSchema = {
  fields: {
    name: { type: 'string', required: true, maxLength: 40 },
    age: { type: 'integer', minimum: 0 },
    email: { type: 'string', pattern: '^[^@]+@[^@]+$' },
  },
};

beforeAll(async () => {
  ai = await startAiPlatform({ provider: true });
  owner = await ai.signIn('owner');
  bob = await ai.signIn('bob');
});

afterAll(async () => {
  await ai?.close();
});

/** A project with AI on, a `contacts` type with a schema and a `notes` type for sources. */
async function setup(): Promise<{ projectId: string; extract: (body: unknown, token?: string) => Promise<TestResponse> }> {
  const projectId = await ai.project({ ownerId: 'owner', aiEnabled: true, members: [{ userId: 'bob' }] });
  for (const body of [
    { id: 'contacts', name: 'Contacts', schema: contactSchema },
    { id: 'notes', name: 'Notes' },
    { id: 'plain', name: 'Plain' },
    { id: 'hidden', name: 'Hidden', schema: contactSchema, access: { read: { userIds: ['owner'] } } },
  ]) {
    expect((await ai.platform.call('POST', `/api/projects/${projectId}/types`, { token: owner, body })).status).toBe(201);
  }
  return {
    projectId,
    extract: (body, token = bob) => ai.platform.call('POST', `/api/projects/${projectId}/types/contacts/ai-extract`, { token, body }),
  };
}

describe('ai-extract', () => {
  it('answers {data} shaped by the type schema, asking for structured output with it', async () => {
    const { extract } = await setup();
    ai.fake?.answerWith({ content: '```json\n{"name":"Ada Lovelace","age":36,"email":null,"hobby":"maths"}\n```' });
    const response = await extract({ text: 'Ada Lovelace is 36 and likes maths.' });
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { data: { name: 'Ada Lovelace', age: 36 } } });

    const sent = ai.fake?.requests.at(-1)?.body;
    const expectedSchema = {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', maxLength: 40 }, age: { type: ['integer', 'null'], minimum: 0 }, email: { type: ['string', 'null'], pattern: '^[^@]+@[^@]+$' } },
    };
    expect(sent.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'document', schema: expectedSchema } });
    expect(sent.temperature).toBe(0);
    expect(sent.messages[0].role).toBe('system');
    expect(sent.messages[0].content).toContain('"Contacts"');
    expect(sent.messages[1]).toEqual({ role: 'user', content: 'Ada Lovelace is 36 and likes maths.' });
  });

  it.each([
    {
      case: 'a missing required field and a wrong type',
      answer: '{"age":"thirty"}',
      problems: [{ field: 'name', message: 'is required', keyword: 'required', params: { missingProperty: 'name' } }],
    },
    { case: 'a value breaking a pattern', answer: '{"name":"Ada","email":"nope"}', problems: [{ field: 'email', message: 'must match pattern "^[^@]+@[^@]+$"', keyword: 'pattern', params: { pattern: '^[^@]+@[^@]+$' } }] },
    { case: 'prose instead of JSON', answer: 'I think her name is Ada.', problems: [{ field: 'answer', message: 'is not JSON' }] },
  ])('answers 400 with the problems when the model gives $case', async ({ answer, problems }) => {
    const { extract } = await setup();
    ai.fake?.answerWith({ content: answer });
    const response = await extract({ text: 'Ada' });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('AI_EXTRACT_INVALID');
    expect(response.body.error).toContain(problems[0]?.field);
    expect(response.body.details).toEqual({ problems, answer });
  });

  it('reads the source text from a field of a document', async () => {
    const { projectId, extract } = await setup();
    const note = await ai.platform.call('POST', `/api/projects/${projectId}/types/notes/data`, { token: owner, body: { id: 'n1', body: 'Grace Hopper, 85', tag: 'x' } });
    expect(note.status).toBe(201);
    ai.fake?.answerWith({ content: '{"name":"Grace Hopper","age":85}' });
    const response = await extract({ documentId: 'n1', sourceTypeId: 'notes', field: 'body' });
    expect(response.body).toEqual({ data: { name: 'Grace Hopper', age: 85 } });
    expect(ai.fake?.requests.at(-1)?.body.messages[1]).toEqual({ role: 'user', content: 'Grace Hopper, 85' });
  });

  it('without a field, gives the whole source document (its own fields) as JSON', async () => {
    const { projectId, extract } = await setup();
    await ai.platform.call('POST', `/api/projects/${projectId}/types/contacts/data`, { token: owner, body: { id: 'c1', name: 'Alan' } });
    ai.fake?.answerWith({ content: '{"name":"Alan"}' });
    expect((await extract({ documentId: 'c1' })).status).toBe(200);
    expect(JSON.parse(ai.fake?.requests.at(-1)?.body.messages[1].content)).toEqual({ name: 'Alan' });
  });

  it.each([
    { case: 'both text and documentId', body: { text: 'a', documentId: 'n1' }, status: 400, code: 'VALIDATION_FAILED' },
    { case: 'neither text nor documentId', body: {}, status: 400, code: 'VALIDATION_FAILED' },
    { case: 'field without documentId', body: { text: 'a', field: 'body' }, status: 400, code: 'VALIDATION_FAILED' },
    { case: 'an unknown key', body: { text: 'a', model: 'gpt' }, status: 400, code: 'VALIDATION_FAILED' },
    { case: 'a source field that is not text', body: { documentId: 'n2', sourceTypeId: 'notes', field: 'count' }, status: 400, code: 'AI_SOURCE_NOT_TEXT' },
    { case: 'a source document bob may not read', body: { documentId: 'secret', sourceTypeId: 'notes' }, status: 404, code: 'DATA_ENTITY_NOT_FOUND' },
    { case: 'a source type that does not exist', body: { documentId: 'n2', sourceTypeId: 'nothing' }, status: 404, code: 'DATA_TYPE_NOT_FOUND' },
  ])('refuses $case ($status), calling no provider', async ({ body, status, code }) => {
    const { projectId, extract } = await setup();
    await ai.platform.call('POST', `/api/projects/${projectId}/types/notes/data`, { token: owner, body: { id: 'n2', count: 3 } });
    await ai.platform.call('POST', `/api/projects/${projectId}/types/notes/data`, { token: owner, body: { id: 'secret', body: 'x', access: { read: { userIds: ['owner'] } } } });
    const before = ai.fake?.requests.length;
    const response = await extract(body);
    expect({ status: response.status, code: response.body.code }).toEqual({ status, code });
    expect(ai.fake?.requests.length).toBe(before);
  });

  it.each([
    { case: 'a type without schema', typeId: 'plain', token: 'bob' as const, status: 400, code: 'AI_TYPE_HAS_NO_SCHEMA' },
    { case: 'a type that does not exist', typeId: 'nothing', token: 'bob' as const, status: 404, code: 'DATA_TYPE_NOT_FOUND' },
    { case: 'a type bob may not read', typeId: 'hidden', token: 'bob' as const, status: 404, code: 'DATA_TYPE_NOT_FOUND' },
  ])('refuses extraction into $case, calling no provider', async ({ typeId, status, code }) => {
    const { projectId } = await setup();
    const before = ai.fake?.requests.length;
    const response = await ai.platform.call('POST', `/api/projects/${projectId}/types/${typeId}/ai-extract`, { token: bob, body: { text: 'Ada' } });
    expect({ status: response.status, code: response.body.code }).toEqual({ status, code });
    expect(ai.fake?.requests.length).toBe(before);
  });

  it('stores nothing: extraction only answers', async () => {
    const { projectId, extract } = await setup();
    ai.fake?.answerWith({ content: '{"name":"Ada"}' });
    expect((await extract({ text: 'Ada' })).status).toBe(200);
    expect((await ai.platform.call('GET', `/api/projects/${projectId}/types/contacts/data`, { token: owner })).body.items).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { jsonSchemaFromLegacy } from '@platform/documents';
import { readExtraction } from './extraction';

const contact = jsonSchemaFromLegacy({
  fields: {
    name: { type: 'string', required: true, maxLength: 50 },
    age: { type: 'integer', minimum: 0 },
    born: { type: 'timestamp' },
    tags: { type: 'array', items: { type: 'string', enum: ['lead', 'customer'] } },
    address: { type: 'object', fields: { city: { type: 'string', required: true } } },
    vip: { type: 'boolean', description: 'Pays more' },
  },
});

describe('readExtraction', () => {
  it.each([
    { case: 'plain JSON', content: '{"name":"Ada","age":36}', data: { name: 'Ada', age: 36 } },
    { case: 'a fenced answer', content: '```json\n{"name":"Ada"}\n```', data: { name: 'Ada' } },
    { case: 'fields the schema does not name and nulls are dropped', content: '{"name":"Ada","age":null,"constructor":1,"extra":true}', data: { name: 'Ada' } },
  ])('accepts $case', ({ content, data }) => {
    expect(readExtraction(contact, content)).toEqual({ ok: true, data });
  });

  it.each([
    { case: 'prose', content: 'Sorry, I cannot help', problems: [{ field: 'answer', message: 'is not JSON' }] },
    { case: 'an array', content: '[{"name":"Ada"}]', problems: [{ field: 'answer', message: 'is not a JSON object' }] },
    { case: 'a missing required field', content: '{"age":3}', problems: [{ field: 'name', message: 'is required', keyword: 'required', params: { missingProperty: 'name' } }] },
    { case: 'a wrong type', content: '{"name":"Ada","age":"old"}', problems: [{ field: 'age', message: 'must be integer,null', keyword: 'type', params: { type: ['integer', 'null'] } }] },
    { case: 'a nested missing field', content: '{"name":"Ada","address":{}}', problems: [{ field: 'address.city', message: 'is required', keyword: 'required', params: { missingProperty: 'city' } }] },
    { case: 'a value outside its enum', content: '{"name":"Ada","tags":["friend"]}', problems: [{ field: 'tags.0', message: 'must be equal to one of the allowed values', keyword: 'enum', params: { allowedValues: expect.any(Array) } }] },
  ])('refuses $case with the problems', ({ content, problems }) => {
    expect(readExtraction(contact, content)).toEqual({ ok: false, problems });
  });
});

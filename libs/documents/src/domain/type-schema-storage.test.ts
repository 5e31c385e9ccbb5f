import { describe, expect, it } from 'vitest';
import { loadedTypeFields, storedTypeFields, storedTypeModifier } from './type-schema-storage';

const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { type: 'object', properties: { city: { type: 'string' } }, $comment: 'postal' } },
  properties: { home: { $ref: '#/$defs/address' }, tags: { type: 'array', items: { $ref: '#/$defs/address' } } },
};

function keysIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysIn(inner)]);
}

describe('type schema storage encoding', () => {
  it('stores no $ key and reads the schema back as it was sent', () => {
    const stored = storedTypeFields({ name: 'Contacts', schema });
    expect(keysIn(stored).filter((key) => key.startsWith('$'))).toEqual([]);
    expect(loadedTypeFields(stored)).toEqual({ name: 'Contacts', schema });
  });

  it('round-trips keys that already start with the escape character', () => {
    const odd = { type: 'object', default: { '\uFF04x': 1, '\uFF04\uFF04y': 2, $z: 3 } };
    const stored = storedTypeFields({ schema: odd });
    expect(keysIn(stored).filter((key) => key.startsWith('$'))).toEqual([]);
    expect(loadedTypeFields(stored)).toEqual({ schema: odd });
  });

  it('copies only the parts of a schema that hold an escaped key, keeping the order of keys and items', () => {
    const mixed = { ...schema, examples: [{ plain: 1 }, { $odd: 2 }, { plain: 3 }] };
    const stored = storedTypeFields({ schema: mixed }).schema as Record<string, unknown> & { examples: object[]; properties: { tags: object } };
    const loaded = loadedTypeFields({ schema: stored }).schema as typeof stored;
    expect(loaded).toEqual(mixed);
    expect(Object.keys(loaded)).toEqual(Object.keys(mixed));
    expect(loaded.examples[0]).toBe(stored.examples[0]);
    expect(loaded.examples[1]).not.toBe(stored.examples[1]);
    expect(loaded.properties.tags).not.toBe(stored.properties.tags);
    const plain = { type: 'object', properties: { n: { type: 'integer' } } };
    expect(loadedTypeFields({ schema: plain }).schema).toBe(plain);
  });

  it('reads a schema stored before the encoding (no escaped keys) unchanged', () => {
    const legacy = { fields: { rating: { type: 'integer', required: true } } };
    expect(loadedTypeFields({ id: 't', schema: legacy })).toEqual({ id: 't', schema: legacy });
  });

  it('leaves fields other than the schema alone', () => {
    const fields = { name: 'N', title: { $en: 'kept as sent' } };
    expect(storedTypeFields(fields)).toBe(fields);
  });

  it('escapes the paths and values a modifier writes into the schema, and nothing else', () => {
    const modifier = {
      $set: { 'schema.$defs.address': { $ref: '#/$defs/other' }, 'schema.properties.home': { $ref: '#/$defs/address' }, name: 'N', updatedAt: 5 },
      $unset: { 'schema.$comment': '' },
      $push: { 'schema.required': { $each: ['home'] }, _outbox: { modifierJson: '{"$set":{}}' } },
    };
    expect(storedTypeModifier(modifier)).toEqual({
      $set: { 'schema.\uFF04$defs.address': { '\uFF04$ref': '#/$defs/other' }, 'schema.properties.home': { '\uFF04$ref': '#/$defs/address' }, name: 'N', updatedAt: 5 },
      $unset: { 'schema.\uFF04$comment': '' },
      $push: { 'schema.required': { $each: ['home'] }, _outbox: { modifierJson: '{"$set":{}}' } },
    });
  });

  it('answers a modifier that does not touch the schema as it is', () => {
    const modifier = { $set: { name: 'N' }, $inc: { revision: 1 } };
    expect(storedTypeModifier(modifier)).toBe(modifier);
  });
});

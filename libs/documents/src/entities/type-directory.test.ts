import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedStore, type DocumentStore } from '@platform/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { typesCollection } from '../domain/collections';
import { validateDocument } from '../domain/schema-validator';
import { TypeDirectory } from './type-directory';
import { withTypeSchemaEncoding } from './type-schema-store';

const PROJECT = 'p1';
const atMost = (maximum: number) => ({ type: 'object', $defs: { n: { type: 'integer', maximum } }, properties: { n: { $ref: '#/$defs/n' } } });
const verdict = async (types: TypeDirectory, n: number) => validateDocument((await types.require(PROJECT, 'notes')).schema, { n }).map((problem) => problem.field);

describe('TypeDirectory and the schemas it pins per type revision', () => {
  let store: DocumentStore;
  let types: TypeDirectory;
  const collection = () => store.collection(typesCollection(PROJECT));

  beforeEach(async () => {
    store = withTypeSchemaEncoding(await createEmbeddedStore({ dataDir: await mkdtemp(join(tmpdir(), 'type-directory-')), fsync: false }));
    types = new TypeDirectory(store);
    await collection().insertOne({ id: 'notes', name: 'Notes', schema: atMost(5), revision: 0, createdAt: 1_000, updatedAt: 1_000 });
  });

  afterEach(async () => {
    await store.close();
  });

  it('hands every read of one revision the same frozen schema', async () => {
    const first = await types.require(PROJECT, 'notes');
    const second = await types.require(PROJECT, 'notes');
    expect(second).not.toBe(first);
    expect(second.schema).toBe(first.schema);
    expect(first.schema).toEqual(atMost(5));
    expect(Object.isFrozen(first.schema?.$defs?.n)).toBe(true);
  });

  it('never validates a new revision with the schema of the one before', async () => {
    expect(await verdict(types, 6)).toEqual(['n']);
    // Two writes within one millisecond: only the revision tells them apart.
    await collection().updateOne({ id: 'notes' }, { $set: { 'schema.$defs.n.maximum': 10, revision: 1 } });
    expect(await verdict(types, 6)).toEqual([]);
    expect(await verdict(types, 11)).toEqual(['n']);
    await collection().updateOne({ id: 'notes' }, { $set: { schema: atMost(3), revision: 2, updatedAt: 1_002 } });
    expect(await verdict(types, 4)).toEqual(['n']);
  });

  it('validates with the schema a type without one is given in its next revision', async () => {
    await collection().insertOne({ id: 'plain', name: 'Plain', revision: 0, createdAt: 1_000, updatedAt: 1_000 });
    const schemaOfPlain = async () => (await types.require(PROJECT, 'plain')).schema;
    expect(await schemaOfPlain()).toBeUndefined();
    expect(await schemaOfPlain()).toBeUndefined();
    await collection().updateOne({ id: 'plain' }, { $set: { schema: atMost(5), revision: 1, updatedAt: 1_001 } });
    expect(validateDocument(await schemaOfPlain(), { n: 6 }).map((problem) => problem.field)).toEqual(['n']);
    await collection().updateOne({ id: 'plain' }, { $unset: { schema: '' }, $set: { revision: 2, updatedAt: 1_002 } });
    expect(await schemaOfPlain()).toBeUndefined();
  });

  it('tells a type created again from its earlier life at the same revision and time, and a rewrite of a revision from the one it replaced', async () => {
    await collection().updateOne({ id: 'notes' }, { $set: { revision: 1, updatedAt: 1_500 } });
    expect(await verdict(types, 6)).toEqual(['n']);
    // Created again and changed once, stamped by another replica's clock at the same millisecond.
    await collection().deleteMany({ id: 'notes' });
    await collection().insertOne({ id: 'notes', name: 'Notes', schema: atMost(10), revision: 1, createdAt: 1_200, updatedAt: 1_500 });
    expect(await verdict(types, 6)).toEqual([]);
    await collection().updateOne({ id: 'notes' }, { $set: { schema: atMost(1), updatedAt: 1_501 } });
    expect(await verdict(types, 2)).toEqual(['n']);
  });

  it('keeps the schemas of different projects and types apart', async () => {
    await store.collection(typesCollection('p2')).insertOne({ id: 'notes', name: 'Notes', schema: atMost(10), revision: 0, createdAt: 1_000, updatedAt: 1_000 });
    await collection().insertOne({ id: 'tasks', name: 'Tasks', schema: atMost(1), revision: 0, createdAt: 1_000, updatedAt: 1_000 });
    for (let round = 0; round < 2; round += 1) {
      expect(await verdict(types, 6)).toEqual(['n']);
      expect(validateDocument((await types.require('p2', 'notes')).schema, { n: 6 })).toEqual([]);
      expect(validateDocument((await types.require(PROJECT, 'tasks')).schema, { n: 2 }).map((problem) => problem.field)).toEqual(['n']);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { checkClientModifier, checkNewFields, MODIFIER_LIMITS, touchedPaths } from './modifier-rules';
import { MAX_DOCUMENT_DEPTH } from './document-limits';

const ok = (modifier: unknown, allowAccess = false) => checkClientModifier(modifier, { allowAccess });

describe('client modifier rules', () => {
  it('accepts every shared operator on ordinary fields, with dotted paths', () => {
    expect(
      ok({
        $set: { title: 'x', 'address.city': 'Berlin' },
        $unset: { draft: '' },
        $inc: { count: 1 },
        $push: { tags: { $each: ['a', 'b'] } },
        $pull: { tags: 'c' },
        $addToSet: { labels: 'l' },
        $rename: { old: 'fresh' },
        $min: { low: 1 },
        $max: { high: 2 },
        $mul: { price: 1.1 },
      }),
    ).toEqual([]);
  });

  it.each([
    ['modifier', null],
    ['modifier', []],
    ['modifier', {}],
    ['modifier.title', { title: 'x' }],
    ['modifier.$where', { $where: 'sleep(1000)' }],
    ['modifier.$currentDate', { $currentDate: { at: true } }],
    ['modifier.$set', { $set: 'x' }],
    ['modifier.$set', { $set: {} }],
    ['modifier.$set.id', { $set: { id: 'other' } }],
    ['modifier.$set.revision', { $set: { revision: 99 } }],
    ['modifier.$inc.revision', { $inc: { revision: 1 } }],
    ['modifier.$unset.deletedAt', { $unset: { deletedAt: '' } }],
    ['modifier.$set.changes.0', { $set: { 'changes.0': {} } }],
    ['modifier.$set.updatedAt', { $set: { updatedAt: 1 } }],
    ['modifier.$set.createdAt', { $set: { createdAt: 1 } }],
    ['modifier.$set.projectId', { $set: { projectId: 'p2' } }],
    ['modifier.$set._outbox', { $set: { _outbox: [] } }],
    ['modifier.$set.access.read.userIds', { $set: { 'access.read.userIds': ['me'] } }],
    ['modifier.$set.a.__proto__.polluted', { $set: { 'a.__proto__.polluted': true } }],
    ['modifier.$set.constructor', { $set: { constructor: 1 } }],
    ['modifier.$set.a..b', { $set: { 'a..b': 1 } }],
    ['modifier.$set.items.$.name', { $set: { 'items.$.name': 1 } }],
    ['modifier.$set.nested.$gt', { $set: { nested: { $gt: 1 } } }],
    ['modifier.$set.nested.deep.$where', { $set: { nested: { deep: { $where: 'x' } } } }],
    ['modifier.$set.nested.__proto__', { $set: { nested: JSON.parse('{"__proto__": {"x": 1}}') } }],
    ['modifier.$push.tags.$each.0.$gt', { $push: { tags: { $each: [{ $gt: 1 }] } } }],
    ['modifier.$inc.count', { $inc: { count: 'one' } }],
    ['modifier.$mul.count', { $mul: { count: Number.POSITIVE_INFINITY } }],
    ['modifier.$rename.title', { $rename: { title: 'revision' } }],
    ['modifier.$rename.title', { $rename: { title: 7 } }],
  ])('rejects a modifier, naming %s', (path, modifier) => {
    const problems = ok(modifier);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.map((p) => p.path)).toContain(path);
  });

  it('lets a caller with project update permission change access', () => {
    expect(ok({ $set: { 'access.read.userIds': ['me'] } }, true)).toEqual([]);
  });

  it('bounds size, depth and the number of paths', () => {
    expect(ok({ $set: { big: 'x'.repeat(MODIFIER_LIMITS.maxBytes) } })[0]?.message).toMatch(/bytes/);
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < MODIFIER_LIMITS.maxDepth + 2; i += 1) deep = { inner: deep };
    expect(ok({ $set: { deep } })[0]?.message).toMatch(/deeper/);
    const many = Object.fromEntries(Array.from({ length: MODIFIER_LIMITS.maxPaths + 1 }, (_, i) => [`f${i}`, i]));
    expect(ok({ $set: many }).at(-1)?.message).toMatch(/paths/);
  });

  it('refuses a path with more segments than a document may nest, in any operator and as a rename target, before it is applied', () => {
    const path = (segments: number) => Array.from({ length: segments }, () => 'a').join('.');
    expect(ok({ $set: { [path(MAX_DOCUMENT_DEPTH)]: 1 } })).toEqual([]);
    expect(ok({ $set: { [path(MAX_DOCUMENT_DEPTH + 1)]: 1 } })[0]?.message).toBe(`has ${MAX_DOCUMENT_DEPTH + 1} segments; documents nest at most ${MAX_DOCUMENT_DEPTH} levels`);
    expect(ok({ $inc: { [path(3_900)]: 1 } })).toHaveLength(1);
    expect(ok({ $rename: { title: path(100) } })[0]?.message).toMatch(/^rename target: has 100 segments/);
  });

  it('refuses fields another service owns, at any depth and as a rename target', () => {
    const serverOwned = new Set(['publishedVersionNumber']);
    const check = (modifier: unknown) => checkClientModifier(modifier, { allowAccess: true, serverOwned });
    expect(check({ $set: { publishedVersionNumber: 3 } })).toEqual([{ path: 'modifier.$set.publishedVersionNumber', message: expect.stringMatching(/set by the server/) }]);
    expect(check({ $unset: { 'publishedVersionNumber.x': '' } })).toHaveLength(1);
    expect(check({ $rename: { title: 'publishedVersionNumber' } })).toHaveLength(1);
    expect(check({ $set: { title: 'x' } })).toEqual([]);
    expect(ok({ $set: { publishedVersionNumber: 3 } })).toEqual([]);
  });

  it("allows JSON Schema's $ keywords only inside a JSON Schema field, and no other $ key there", () => {
    const jsonSchemaFields = new Set(['schema']);
    const check = (modifier: unknown) => checkClientModifier(modifier, { allowAccess: false, jsonSchemaFields });
    const schema = { type: 'object', $defs: { a: { type: 'string', $comment: 'c' } }, properties: { x: { $ref: '#/$defs/a' } } };
    expect(check({ $set: { schema } })).toEqual([]);
    expect(check({ $set: { 'schema.$defs.b': { $ref: '#/$defs/a' } }, $unset: { 'schema.$comment': '' } })).toEqual([]);
    expect(check({ $push: { 'schema.examples': { $each: [{ $ref: 'x' }] } } })).toEqual([]);
    expect(ok({ $set: { schema } }).map((p) => p.path)).toEqual(['modifier.$set.schema.$defs']);
    expect(check({ $set: { title: { $ref: '#' } } }).map((p) => p.path)).toEqual(['modifier.$set.title.$ref']);
    expect(check({ $set: { 'title.$ref': 'x' } }).map((p) => p.path)).toEqual(['modifier.$set.title.$ref']);
    expect(check({ $set: { schema: { properties: { x: { $where: 'sleep(1)' } } } } }).map((p) => p.path)).toEqual(['modifier.$set.schema.properties.x.$where']);
    expect(check({ $set: { 'schema.items.$': 1 } }).map((p) => p.path)).toEqual(['modifier.$set.schema.items.$']);
    expect(check({ $rename: { 'schema.title': 'schema.description' } })[0]?.message).toMatch(/not \$rename/);
    expect(check({ $rename: { notes: 'schema' } })[0]?.message).toMatch(/not \$rename/);
  });

  it('lists the paths a modifier touches, both ends of a rename', () => {
    expect(touchedPaths({ $set: { a: 1, 'b.c': 2 }, $rename: { d: 'e' } }).sort()).toEqual(['a', 'b.c', 'd', 'e']);
  });

  it("names a new record's fields: no '.' in a top-level key, dotted keys below kept, the client rules under the given name", () => {
    expect(checkNewFields({ 'a.b': 1, title: 'x', 'c.d': 2 }, 'body', { allowAccess: false })).toEqual([
      { path: 'body.a.b', message: "a field name may not contain '.'; nest an object instead" },
      { path: 'body.c.d', message: "a field name may not contain '.'; nest an object instead" },
    ]);
    expect(checkNewFields({ strings: { 'home.title': 'Hi', 'example.org': true } }, 'body', { allowAccess: false })).toEqual([]);
    expect(checkNewFields({ revision: 3, note: { $gt: 1 } }, 'data', { allowAccess: false })).toEqual([
      { path: 'data.revision', message: 'revision is managed by the server' },
      { path: 'data.note.$gt', message: 'operator keys are not allowed inside values' },
    ]);
  });
});

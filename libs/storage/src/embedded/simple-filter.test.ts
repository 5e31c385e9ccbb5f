import { inspect } from 'node:util';
import { Query } from 'mingo';
import { describe, expect, it } from 'vitest';
import type { Filter } from '../port';
import { simpleFilter } from './simple-filter';

/** Operands of every plain kind, with the edges of each: zero and minus zero, floats, the empty string, digits as a string. */
const OPERANDS = [0, -0, 1, -1, 2.5, 10, 'a', 'b', '', '10', true, false];

const LISTS = [[], [1], [-0], [0, 'a'], ['10', 10], [true, 'b', 2.5], [false, '', -1]];

/** Field values a document may hold, the field left out among them. */
const HELD: unknown[] = [
  undefined, null, 0, -0, 1, -1, 2.5, 10, 'a', 'b', '', '10', true, false, Number.NaN,
  [], [0, 10], [1], [-0], ['a', 1], ['10', 10, false], [true, 'b'], [null], [[1]], [[1], 1], [[]], [{ x: 1 }],
  { x: 1 }, {},
];

/** Every operator on its own, one field. */
function singleConditions(): unknown[] {
  const conditions: unknown[] = [{ $exists: true }, { $exists: false }];
  for (const operand of OPERANDS) {
    conditions.push(operand);
    for (const operator of ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte']) conditions.push({ [operator]: operand });
  }
  for (const list of LISTS) conditions.push({ $in: list }, { $nin: list });
  return conditions;
}

/** Two operators on one field: each must hold, and on an array each may hold for a different element. */
function pairedConditions(): unknown[] {
  const operands = [-0, 1, 5, 'a', true];
  const singles: [string, unknown][] = [['$in', [1, 'a']], ['$nin', [5, true]], ['$exists', true], ['$exists', false]];
  for (const operator of ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte']) for (const operand of operands) singles.push([operator, operand]);
  const pairs: unknown[] = [];
  for (const [first, firstOperand] of singles) {
    for (const [second, secondOperand] of singles) {
      if (first !== second) pairs.push({ [first]: firstOperand, [second]: secondOperand });
    }
  }
  return pairs;
}

function filters(): Filter[] {
  const table: Filter[] = [...singleConditions(), ...pairedConditions()].map((condition) => ({ a: condition }));
  table.push(
    { a: { $gt: 1, $lt: 5 } },
    { a: { $gte: 0, $lte: 0, $ne: 1, $nin: ['a'] } },
    { a: 1, b: { $exists: false } },
    { a: { $in: [1, 'a'] }, b: { $ne: 'a' } },
    { a: { $gt: 0 }, b: { $lt: 'b' } },
    { b: 1, a: { $exists: true } },
    { $and: [{ a: { $gt: 0 } }, { a: { $lt: 5 } }] },
    { $and: [{ a: { $gte: 1 } }, { b: { $in: [1, 'a'] } }], a: { $ne: 10 } },
    { $and: [{ $and: [{ a: 1 }] }, { b: { $exists: true } }] },
    { toString: { $exists: true } },
    { toString: { $exists: false } },
    { constructor: 'x' },
    { constructor: { $ne: 'x' } },
    { $or: [{ a: 1 }, { b: 'a' }] },
    { $or: [{ a: { $exists: false } }, { b: { $in: [1, 'a'] } }], a: { $ne: 10 } },
    { $and: [{ $or: [{ a: { $gt: 0 } }, { b: 1 }] }, { $or: [{ a: { $lt: 5 } }, { b: { $exists: false } }] }] },
    { $or: [{ $and: [{ a: 1 }, { b: 1 }] }, { $or: [{ a: 'a' }] }] },
  );
  return table;
}

/** Conditions on dotted paths through `a`, alone and as the read rule's filter combines them. */
function pathFilters(): Filter[] {
  const table: Filter[] = [];
  for (const condition of [...singleConditions(), { $gt: 0, $lt: 5 }]) {
    table.push({ 'a.b': condition }, { 'a.b.c': condition }, { 'a.0': condition });
  }
  table.push(
    { 'toString.x': { $exists: true } },
    { 'a.toString': { $exists: true } },
    { 'a.constructor': { $exists: false } },
    { 'a.length': { $exists: true } },
    { 'a.b': 1, 'a.c': { $exists: false } },
    { $or: [{ 'a.b': { $exists: false } }, { 'a.b.c': { $exists: false }, 'a.b.d': { $exists: false } }, { 'a.b.c': { $in: ['x', 1] } }, { 'a.b.d': 'u' }] },
    { $or: [{ 'a.b': 1 }, { b: 1 }] },
    { $or: [{ 'a.b.c': 1 }, { 'a.b.c': { $exists: false } }] },
    { $and: [{ 'a.b': { $ne: 1 } }, { $or: [{ b: 1 }, { 'a.b.c': 'x' }] }] },
  );
  return table;
}

/** Values of `a` for the dotted paths: nested objects, arrays on the way, scalars and nulls where an object would be. */
const NESTED: unknown[] = [
  undefined, null, 1, 'ab', [], [1], true,
  {}, { b: null }, { b: 1 }, { b: 'x' }, { b: [1, 2] }, { b: [] }, { b: 0 }, { b: -0 }, { b: 'a' }, { b: 10 }, { b: 2.5 }, { b: true },
  { b: {} }, { b: { c: 1 } }, { b: { c: 'x' } }, { b: { c: [1] } }, { b: { c: null } }, { b: { d: 'u' } }, { b: { c: 'x', d: 'u' } },
  { b: [{ c: 1 }] }, { b: { c: { e: 1 } } }, [{ b: 1 }], [{ b: { c: 1 } }, { b: 2 }], { b: [[1]] },
  { 0: 1 }, { 0: 'a' }, { 0: { b: 1 } }, { c: 1 }, { b: 1, c: 1 }, { length: 1 }, { toString: 1 }, { constructor: 'x' },
];

function nestedDocuments(): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  for (const a of NESTED) {
    for (const b of [undefined, 1]) {
      const document: Record<string, unknown> = { id: 'd' };
      if (a !== undefined) document.a = a;
      if (b !== undefined) document.b = b;
      found.push(document);
    }
  }
  found.push({ id: 'd', toString: { x: 1 } });
  return found;
}

/** Compares the compiled test with mingo's on every document; answers how many comparisons it made. */
function compareWithEngine(filters: Filter[], docs: Record<string, unknown>[]): number {
  let compared = 0;
  for (const filter of filters) {
    const compiled = simpleFilter(filter);
    expect(compiled, inspect(filter)).toBeDefined();
    const query = new Query(filter, { idKey: 'id' });
    for (const document of docs) {
      const expected = query.test(document);
      if (compiled!.test(document) !== expected) {
        expect.fail(`${inspect(filter)} on ${inspect(document, { depth: 5 })}: mingo says ${expected}`);
      }
      compared += 1;
    }
  }
  return compared;
}

function documents(): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  for (const a of HELD) {
    for (const b of [undefined, null, 1, 'a', [1, 'a'], { b: 1 }]) {
      const document: Record<string, unknown> = { id: 'd' };
      if (a !== undefined) document.a = a;
      if (b !== undefined) document.b = b;
      found.push(document);
    }
  }
  found.push({ id: 'd', toString: 'x' }, { id: 'd', constructor: 'x' }, { id: 'd', constructor: null });
  return found;
}

describe('simpleFilter', () => {
  it('answers as mingo does for every supported operator, combination and kind of stored value', () => {
    expect(compareWithEngine(filters(), documents())).toBeGreaterThan(50_000);
  });

  it('answers as mingo does on dotted paths, through nested objects, arrays, scalars and nulls', () => {
    expect(compareWithEngine(pathFilters(), nestedDocuments())).toBeGreaterThan(15_000);
  });

  it("reads the read rule's filter itself, and hands a document with an array on its path to the engine", () => {
    const readable = simpleFilter({
      $and: [
        { projectId: 'p' },
        { $or: [{ 'access.read': { $exists: false } }, { 'access.read.permission': { $exists: false }, 'access.read.userIds': { $exists: false } }, { 'access.read.permission': { $in: ['member'] } }, { 'access.read.userIds': 'u1' }] },
      ],
    });
    expect(readable?.test({ projectId: 'p', access: {} })).toBe(true);
    expect(readable?.test({ projectId: 'p', access: { read: { permission: 'secret' } } })).toBe(false);
    expect(readable?.test({ projectId: 'p', access: { read: { permission: 'member' } } })).toBe(true);
    expect(readable?.test({ projectId: 'p', access: { read: { userIds: ['u2', 'u1'] } } })).toBe(true);
    expect(readable?.test({ projectId: 'q', access: {} })).toBe(false);
    // MongoDB reads `access.read.permission` in each element of an array `read`: mingo decides.
    expect(readable?.test({ projectId: 'p', access: { read: [{ permission: 'secret' }] } })).toBe(false);
    expect(readable?.test({ projectId: 'p', access: { read: [{ permission: 'member' }] } })).toBe(true);
  });

  it('keeps the hot paths MongoDB meanings: an array holding the value, a missing field never in range, null present', () => {
    const byEntity = simpleFilter({ entityId: 'x', revision: { $gt: -2 } });
    expect(byEntity?.test({ entityId: 'x', revision: -1 })).toBe(true);
    expect(byEntity?.test({ entityId: 'x' })).toBe(false);
    expect(byEntity?.test({ entityId: ['y', 'x'], revision: 0 })).toBe(true);
    expect(byEntity?.test({ entityId: [['x']], revision: 0 })).toBe(false);
    expect(byEntity?.test({ entityId: 'x', revision: '0' })).toBe(false);
    const live = simpleFilter({ projectId: 'p', deletedAt: { $exists: false } });
    expect(live?.test({ projectId: 'p' })).toBe(true);
    expect(live?.test({ projectId: 'p', deletedAt: null })).toBe(false);
    expect(simpleFilter({ a: { $gt: 1, $lt: 5 } })?.test({ a: [0, 10] })).toBe(true);
  });

  it('leaves every other shape to the query engine', () => {
    const unsupported: unknown[] = [
      {},
      { 'a..b': 1 },
      { '.a': 1 },
      { 'a.': 1 },
      { 'a.$': 1 },
      { 'a.__proto__': 1 },
      { $or: [] },
      { $or: {} },
      { $or: [{}] },
      { $or: [{ a: 1 }, { b: { $regex: 'x' } }] },
      { a: { $regex: 'x' } },
      { a: /x/ },
      { $nor: [{ a: 1 }] },
      { $expr: { $eq: ['$a', 1] } },
      { $where: 'true' },
      { $comment: 'x', a: 1 },
      { $a: 1 },
      { a: null },
      { a: undefined },
      { a: Number.NaN },
      { a: { $eq: null } },
      { a: { $ne: null } },
      { a: { $gt: Number.NaN } },
      { a: { $in: [1, null] } },
      { a: { $nin: [{ x: 1 }] } },
      { a: { $in: 1 } },
      { a: { $in: [1, , 2] } },
      { a: { $exists: 1 } },
      { a: { $eq: { x: 1 } } },
      { a: { $eq: [1] } },
      { a: { b: 1 } },
      { a: [1] },
      { a: {} },
      { a: new Date(0) },
      { a: { $elemMatch: { $gt: 1 } } },
      { a: { $size: 1 } },
      { a: { $type: 'number' } },
      { a: { $not: { $gt: 1 } } },
      { a: { $all: [1] } },
      { a: { $gt: 1, b: 2 } },
      { a: { $foo: 1 } },
      { $and: [] },
      { $and: {} },
      { $and: [{}] },
      { $and: [{ a: 1 }, { 'b.c': null }] },
      { $and: [{ a: 1 }, { $or: [{ b: null }] }] },
      JSON.parse('{"__proto__": 1}'),
    ];
    for (const filter of unsupported) expect(simpleFilter(filter as Filter), inspect(filter)).toBeUndefined();
  });
});

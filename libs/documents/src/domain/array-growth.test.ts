import type { UpdateModifier } from '@platform/storage';
import { describe, expect, it } from 'vitest';
import { arrayGrowthProblem } from './array-growth';

describe('array growth of a modifier', () => {
  it('counts the elements writes past arrays’ ends add, all arrays together, and refuses past the limit', () => {
    const document = { a: [], b: [1, 2], c: { d: [] } };
    expect(arrayGrowthProblem(document, { $set: { 'a.4': 1, 'b.4': 1 } }, 8)).toBeUndefined();
    expect(arrayGrowthProblem(document, { $set: { 'a.4': 1, 'b.4': 1, 'c.d.1': 1 } }, 10)).toBeUndefined();
    expect(arrayGrowthProblem(document, { $set: { 'a.4': 1, 'b.4': 1, 'c.d.2': 1 } }, 10)).toMatchObject({ field: 'a', limit: 10, elements: 11 });
    // 499 paths each within the array limit, as in the report: refused as a whole.
    const many = Object.fromEntries(Array.from({ length: 499 }, (_, index) => [`a${index}`, []]));
    const farWrites = Object.fromEntries(Array.from({ length: 499 }, (_, index) => [`a${index}.9999`, 1]));
    expect(arrayGrowthProblem(many, { $set: farWrites }, 10_000)).toMatchObject({ elements: 4_990_000, limit: 10_000 });
  });

  it('counts an array written at several indexes once, to the furthest', () => {
    const writes = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`list.${index}`, index]));
    expect(arrayGrowthProblem({ list: [] }, { $set: writes }, 100)).toBeUndefined();
    expect(arrayGrowthProblem({ list: [] }, { $set: writes }, 99)).toMatchObject({ field: 'list', elements: 100 });
  });

  it('counts every operator that writes at a path, $rename at its target, and not $unset or $pull', () => {
    const document = { list: [], old: 1 };
    const modifiers: UpdateModifier[] = [{ $inc: { 'list.9': 1 } }, { $max: { 'list.9': 1 } }, { $push: { 'list.9': 1 } }, { $addToSet: { 'list.9': 1 } }, { $rename: { old: 'list.9' } }];
    for (const modifier of modifiers) {
      expect(arrayGrowthProblem(document, modifier, 5)).toMatchObject({ field: 'list', elements: 10 });
    }
    expect(arrayGrowthProblem(document, { $unset: { 'list.9': '' }, $pull: { 'list.8': 1 } }, 5)).toBeUndefined();
  });

  it('counts nothing for writes within an array, below a missing field (objects are made) or through objects', () => {
    expect(arrayGrowthProblem({ list: [1, 2, 3] }, { $set: { 'list.2': 9 } }, 0)).toBeUndefined();
    expect(arrayGrowthProblem({}, { $set: { 'missing.9999': 1 } }, 0)).toBeUndefined();
    expect(arrayGrowthProblem({ rows: [{ cells: [] }] }, { $set: { 'rows.0.cells.3': 1 } }, 3)).toMatchObject({ field: 'rows.0.cells', elements: 4 });
    expect(arrayGrowthProblem({ rows: [] }, { $set: { 'rows.0.cells.3': 1 } }, 0)).toMatchObject({ field: 'rows', elements: 1 });
  });
});

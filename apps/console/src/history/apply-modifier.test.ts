import { describe, expect, it } from 'vitest';
import { applyModifier, diffStates, restoringModifier, stateAt, type Modifier } from './apply-modifier';

describe('history replay', () => {
  const changes: Array<{ modifier: Modifier }> = [
    { modifier: { $set: { title: 'A', tags: ['x'], meta: { n: 1 } } } },
    { modifier: { $set: { title: 'B', 'meta.n': 2 }, $push: { tags: 'y' } } },
    { modifier: { $unset: { title: '' }, $inc: { 'meta.n': 5 }, $addToSet: { tags: { $each: ['x', 'z'] } } } },
  ];

  it('answers the fields at every revision', () => {
    expect(stateAt(changes, 0)).toEqual({ title: 'A', tags: ['x'], meta: { n: 1 } });
    expect(stateAt(changes, 1)).toEqual({ title: 'B', tags: ['x', 'y'], meta: { n: 2 } });
    expect(stateAt(changes, 2)).toEqual({ tags: ['x', 'y', 'z'], meta: { n: 7 } });
  });

  it('leaves the document it was given unchanged', () => {
    const document = { list: [1, 2, 1] };
    expect(applyModifier(document, { $pull: { list: 1 }, $rename: { list: 'items' } })).toEqual({ items: [2] });
    expect(document).toEqual({ list: [1, 2, 1] });
  });

  it('diffs two revisions by leaf path', () => {
    expect(diffStates(stateAt(changes, 0), stateAt(changes, 2))).toEqual([
      { path: 'meta.n', before: 1, after: 7 },
      { path: 'tags', before: ['x'], after: ['x', 'y', 'z'] },
      { path: 'title', before: 'A', after: undefined },
    ]);
  });

  it('restores an old revision with $set and $unset of the top-level fields only', () => {
    expect(restoringModifier({ title: 'B', extra: 1, same: true }, { title: 'A', same: true })).toEqual({ $set: { title: 'A' }, $unset: { extra: '' } });
    expect(restoringModifier({ a: 1 }, { a: 1 })).toEqual({});
  });
});

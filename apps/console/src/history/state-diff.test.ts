import { describe, expect, it } from 'vitest';
import { diffStates, restoringModifier } from './state-diff';

describe('comparing and restoring revisions', () => {
  it('diffs two revisions by leaf path', () => {
    expect(diffStates({ title: 'A', tags: ['x'], meta: { n: 1 } }, { tags: ['x', 'y', 'z'], meta: { n: 7 } })).toEqual([
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

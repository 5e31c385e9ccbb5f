import { describe, expect, it } from 'vitest';
import { targetTypeProblems } from './modifier-targets';

const document = { title: 'text', count: 2, tags: ['a'], meta: { note: 'n' }, empty: null };

describe('modifier targets', () => {
  it('accepts operators on values of their type and on missing fields', () => {
    expect(targetTypeProblems(document, { $inc: { count: 1, fresh: 1 }, $mul: { count: 2 }, $push: { tags: 'b', more: 1 }, $pull: { tags: 'a' }, $set: { 'meta.x': 1, 'new.path': 1 } })).toEqual([]);
  });

  it.each([
    ['modifier.$mul.title', { $mul: { title: 2 } }],
    ['modifier.$inc.empty', { $inc: { empty: 1 } }],
    ['modifier.$push.title', { $push: { title: 'x' } }],
    ['modifier.$addToSet.meta', { $addToSet: { meta: 'x' } }],
    ['modifier.$pull.count', { $pull: { count: 1 } }],
    ['modifier.$set.title.x', { $set: { 'title.x': 1 } }],
  ])('names %s', (path, modifier) => {
    expect(targetTypeProblems(document, modifier).map((problem) => problem.path)).toEqual([path]);
  });

  it('lets $unset pass through a scalar, as MongoDB does', () => {
    expect(targetTypeProblems(document, { $unset: { 'title.x': '' } })).toEqual([]);
  });

  it('refuses a $rename out of or into an array element, as MongoDB does, and lets other renames pass', () => {
    expect(targetTypeProblems(document, { $rename: { 'tags.0': 'first' } }).map((problem) => problem.path)).toEqual(['modifier.$rename.tags.0']);
    expect(targetTypeProblems(document, { $rename: { title: 'tags.5' } }).map((problem) => problem.message)).toEqual(['$rename cannot move a value out of or into an array element']);
    expect(targetTypeProblems(document, { $rename: { title: 'heading', 'meta.note': 'meta.remark', tags: 'labels' } })).toEqual([]);
  });
});

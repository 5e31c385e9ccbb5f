import { describe, expect, it } from 'vitest';
import { changesOnlyAccess } from './deleted-entity-rules';

describe('changesOnlyAccess', () => {
  it.each([
    { modifier: { $set: { access: { read: { userIds: [] } } } }, expected: true },
    { modifier: { $set: { 'access.read.permission': 'p::x' }, $unset: { 'access.update': '' } }, expected: true },
    { modifier: { $addToSet: { 'access.read.userIds': 'u1' } }, expected: true },
    { modifier: { $set: { 'access.read.permission': 'p::x', title: 'new' } }, expected: false },
    { modifier: { $set: { title: 'new' } }, expected: false },
    { modifier: { $rename: { access: 'title' } }, expected: false },
    { modifier: { $set: { accessible: true } }, expected: false },
    { modifier: { $set: {} }, expected: false },
    { modifier: {}, expected: false },
    { modifier: { $set: 'access' }, expected: false },
    { modifier: null, expected: false },
    { modifier: ['access'], expected: false },
  ])('$modifier → $expected', ({ modifier, expected }) => {
    expect(changesOnlyAccess(modifier)).toBe(expected);
  });
});

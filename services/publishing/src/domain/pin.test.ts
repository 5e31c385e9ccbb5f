import { describe, expect, it } from 'vitest';
import { assignModifier, assignsNothing, pinChange, pinnedAfter } from './pin';

const target = { targetType: 'application', targetId: 'app1' };

describe('Domain pin table', () => {
  it.each([
    ['truthy id', { targetVersionId: 'app1:2' }, { kind: 'pin', versionId: 'app1:2' }],
    ['null', { targetVersionId: null }, { kind: 'unpin' }],
    ['empty string', { targetVersionId: '' }, { kind: 'unpin' }],
    ['false', { targetVersionId: false }, { kind: 'unpin' }],
    ['0', { targetVersionId: 0 }, { kind: 'unpin' }],
    ['key present, undefined', { targetVersionId: undefined }, { kind: 'unpin' }],
    ['key absent', {}, { kind: 'unchanged' }],
  ])('%s', (_label, body, expected) => {
    expect(pinChange(body)).toEqual(expected);
  });

  it('refuses a truthy value that is not a version id', () => {
    expect(() => pinChange({ targetVersionId: true })).toThrow(TypeError);
  });

  it('pins with $set, unpins with $unset, leaves the pin alone when the key is absent', () => {
    expect(assignModifier(target, { kind: 'pin', versionId: 'v' }, 5)).toEqual({ $set: { ...target, updatedAt: 5, targetVersionId: 'v' }, $inc: { revision: 1 } });
    expect(assignModifier(target, { kind: 'unpin' }, 5)).toEqual({ $set: { ...target, updatedAt: 5 }, $unset: { targetVersionId: '' }, $inc: { revision: 1 } });
    const unchanged = assignModifier(target, { kind: 'unchanged' }, 5);
    expect(unchanged).toEqual({ $set: { ...target, updatedAt: 5 }, $inc: { revision: 1 } });
    expect(JSON.stringify(unchanged)).not.toContain('targetVersionId');
  });

  it('answers the pin after the change', () => {
    expect(pinnedAfter({ kind: 'pin', versionId: 'b' }, 'a')).toBe('b');
    expect(pinnedAfter({ kind: 'unpin' }, 'a')).toBeUndefined();
    expect(pinnedAfter({ kind: 'unchanged' }, 'a')).toBe('a');
    expect(pinnedAfter({ kind: 'unchanged' }, undefined)).toBeUndefined();
  });

  it.each([
    ['the same target, pin key absent', { ...target, targetVersionId: 'app1:1' }, { kind: 'unchanged' }, true],
    ['the same pin', { ...target, targetVersionId: 'app1:1' }, { kind: 'pin', versionId: 'app1:1' }, true],
    ['an unpin of an unpinned domain', target, { kind: 'unpin' }, true],
    ['another pin', { ...target, targetVersionId: 'app1:1' }, { kind: 'pin', versionId: 'app1:2' }, false],
    ['an unpin of a pinned domain', { ...target, targetVersionId: 'app1:1' }, { kind: 'unpin' }, false],
    ['another application', { ...target, targetId: 'app2' }, { kind: 'unchanged' }, false],
    ['a domain without a target', {}, { kind: 'unpin' }, false],
  ] as const)('assignsNothing: %s', (_label, domain, pin, expected) => {
    expect(assignsNothing(domain, target, pin)).toBe(expected);
  });
});

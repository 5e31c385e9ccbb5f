import { describe, expect, it } from 'vitest';
import { standingDigest } from './rls';

const caller = (permissions: string[], superuser = false) => ({ userId: 'u1', superuser, permissions: new Set(permissions) });

describe('standingDigest', () => {
  it('is the same for the same permissions in any order, and for any user holding them', () => {
    expect(standingDigest(caller(['p::a', 'p::b']))).toBe(standingDigest(caller(['p::b', 'p::a'])));
    expect(standingDigest({ ...caller(['p::a']), userId: 'u2' })).toBe(standingDigest(caller(['p::a'])));
    expect(standingDigest(caller([]))).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it('moves with a permission given or taken, and with passing every rule', () => {
    const digests = new Set([caller([]), caller(['p::a']), caller(['p::a', 'p::b']), caller([], true), caller(['p::a'], true)].map(standingDigest));
    expect(digests.size).toBe(5);
  });
});

import { anonymousPrincipal, type Principal } from '@platform/contracts';
import { verifyPrincipal } from '@platform/kit';
import { describe, expect, it } from 'vitest';
import { cachingPrincipalSigner } from './principal-signer';

const secret = 's'.repeat(40);
const user: Principal = { kind: 'user', userId: 'u1', sessionId: 's1', platformOwner: false };

describe('caching principal signer', () => {
  it('reuses a signature for a few seconds, and every header it hands out verifies for the rest of its reuse', () => {
    let now = 1_000_000;
    const sign = cachingPrincipalSigner(secret, () => now);
    const first = sign(user);
    now += 9_999;
    expect(sign(user)).toBe(first);
    expect(verifyPrincipal(first, secret, now)).toEqual(user);
    now += 1;
    const renewed = sign(user);
    expect(renewed).not.toBe(first);
    expect(verifyPrincipal(renewed, secret, now + 59_000)).toEqual(user);
  });

  it('signs a changed principal afresh', () => {
    const sign = cachingPrincipalSigner(secret, () => 1_000_000);
    const renamed: Principal = { ...user, displayName: 'Ada' };
    expect(verifyPrincipal(sign(user), secret, 1_000_000)).toEqual(user);
    expect(verifyPrincipal(sign(renamed), secret, 1_000_000)).toEqual(renamed);
    expect(verifyPrincipal(sign({ kind: 'anonymous' }), secret, 1_000_000)).toEqual({ kind: 'anonymous' });
  });

  it('signs the shared anonymous principal like any other, reused for a few seconds', () => {
    let now = 1_000_000;
    const sign = cachingPrincipalSigner(secret, () => now);
    const first = sign(anonymousPrincipal);
    expect(verifyPrincipal(first, secret, now)).toEqual({ kind: 'anonymous' });
    expect(sign({ kind: 'anonymous' })).toBe(first);
    now += 10_000;
    expect(sign(anonymousPrincipal)).not.toBe(first);
  });
});

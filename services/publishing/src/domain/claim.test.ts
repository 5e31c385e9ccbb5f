import { describe, expect, it } from 'vitest';
import { claimStatus, pendingClaim, provenClaim, renameModifier, verificationRecord, verifiedModifier } from './claim';

describe('domain claims', () => {
  it('names the TXT record after the hostname and holds the token', () => {
    expect(verificationRecord('shop.example.com', 'abc')).toEqual({ type: 'TXT', name: '_platform-verify.shop.example.com', value: 'platform-verify=abc' });
  });

  it('is pending until its expiry, then expired; without a token (stored before verification existed) verified', () => {
    const claim = pendingClaim(1_000, 500);
    expect(claim.verificationExpiresAt).toBe(1_500);
    expect(claimStatus(claim, 1_499)).toBe('pending');
    expect(claimStatus(claim, 1_500)).toBe('expired');
    expect(claimStatus({}, 1_000)).toBe('verified');
    expect(claimStatus({ verifiedAt: 900 }, 1_000)).toBe('verified');
  });

  it('draws a fresh 128-bit token for every claim', () => {
    const tokens = new Set(Array.from({ length: 100 }, () => pendingClaim(0, 1).verificationToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(token).toMatch(/^[0-9a-f]{32}$/);
  });

  it('a rename starts a new pending claim and drops verifiedAt; verifying drops the claim', () => {
    const rename = renameModifier('new.example.com', pendingClaim(10, 5), 10);
    expect(rename.$set).toMatchObject({ hostname: 'new.example.com', verificationToken: expect.any(String), verificationExpiresAt: 15, updatedAt: 10 });
    expect(rename.$unset).toEqual({ verifiedAt: '' });
    expect(verifiedModifier(20)).toEqual({ $set: { verifiedAt: 20, updatedAt: 20 }, $unset: { verificationToken: '', verificationExpiresAt: '' }, $inc: { revision: 1 } });
  });

  it('a rename proven at once (a takeover by DNS) is verified and drops the pending claim', () => {
    expect(renameModifier('new.example.com', provenClaim(10), 10)).toEqual({
      $set: { hostname: 'new.example.com', verifiedAt: 10, updatedAt: 10 },
      $unset: { verificationToken: '', verificationExpiresAt: '' },
      $inc: { revision: 1 },
    });
  });
});

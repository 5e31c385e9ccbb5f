import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { matchCode, newRecoveryCodes, newTwoFactorSecret, totpCounter, type TwoFactor } from './two-factor';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 10);
const codeAt = (secret: string, at: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });

describe('two-step sign-in codes', () => {
  it('takes a code one 30-second step either side of now, and no further', () => {
    const secret = newTwoFactorSecret();
    const step = Math.floor(NOW / 30_000);
    expect(totpCounter(secret, codeAt(secret, NOW), NOW)).toBe(step);
    expect(totpCounter(secret, codeAt(secret, NOW - 30_000), NOW)).toBe(step - 1);
    expect(totpCounter(secret, codeAt(secret, NOW + 30_000), NOW)).toBe(step + 1);
    expect(totpCounter(secret, codeAt(secret, NOW - 90_000), NOW)).toBeNull();
    for (const malformed of ['', '12345', '1234567', 'abcdef']) expect(totpCounter(secret, malformed, NOW)).toBeNull();
  });

  it('refuses a code of a step used already or older, and takes recovery codes in any case, with or without the dash', () => {
    const secret = newTwoFactorSecret();
    const { codes, hashes } = newRecoveryCodes();
    const step = Math.floor(NOW / 30_000);
    const factor: TwoFactor = { secret, lastCounter: step, recoveryCodeHashes: hashes, enabledAt: NOW };
    expect(matchCode(factor, codeAt(secret, NOW), NOW)).toBeNull();
    expect(matchCode(factor, codeAt(secret, NOW + 30_000), NOW)).toEqual({ kind: 'totp', counter: step + 1 });
    expect(matchCode(factor, ` ${codes[3]!.toUpperCase()} `, NOW)).toMatchObject({ kind: 'recovery', hash: hashes[3] });
    expect(matchCode(factor, codes[3]!.replace('-', ''), NOW)).toMatchObject({ kind: 'recovery' });
    expect(matchCode({ ...factor, recoveryCodeHashes: [] }, codes[3]!, NOW)).toBeNull();
  });

  it('makes ten distinct recovery codes of ten base32 characters', () => {
    const { codes, hashes } = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(new Set(hashes).size).toBe(10);
  });
});

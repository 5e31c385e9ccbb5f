import { createHmac } from 'node:crypto';
import type { Principal } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { signPrincipal, verifyPrincipal } from './principal-signature';

const secret = 's'.repeat(40);
const user: Principal = { kind: 'user', userId: 'u1', sessionId: 's1', platformOwner: false };

describe('principal signature', () => {
  it('round-trips a principal signed with the shared secret', () => {
    expect(verifyPrincipal(signPrincipal(user, secret), secret)).toEqual(user);
    expect(verifyPrincipal(signPrincipal({ kind: 'anonymous' }, secret), secret)).toEqual({ kind: 'anonymous' });
  });

  it('rejects another secret, a tampered payload, garbage and a missing header', () => {
    const header = signPrincipal(user, secret);
    expect(verifyPrincipal(header, 't'.repeat(40))).toBeNull();
    const [payload, mac] = header.split('.');
    const forged = Buffer.from(JSON.stringify({ p: { ...user, platformOwner: true }, exp: Date.now() + 60_000 })).toString('base64url');
    expect(verifyPrincipal(`${forged}.${mac}`, secret)).toBeNull();
    expect(verifyPrincipal(`${payload}.`, secret)).toBeNull();
    expect(verifyPrincipal('not-a-signature', secret)).toBeNull();
    expect(verifyPrincipal(undefined, secret)).toBeNull();
  });

  it('expires after its short lifetime', () => {
    const now = 1_000_000;
    const header = signPrincipal(user, secret, now);
    expect(verifyPrincipal(header, secret, now + 59_000)).toEqual(user);
    expect(verifyPrincipal(header, secret, now + 61_000)).toBeNull();
  });

  it('rejects a signed principal whose exp lies beyond one lifetime plus skew', () => {
    const now = 1_000_000;
    const signedWith = (exp: number) => {
      const payload = Buffer.from(JSON.stringify({ p: user, exp })).toString('base64url');
      return `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
    };
    expect(verifyPrincipal(signedWith(now + 60_000), secret, now)).toEqual(user);
    expect(verifyPrincipal(signedWith(now + 64_000), secret, now)).toEqual(user);
    expect(verifyPrincipal(signedWith(now + 66_000), secret, now)).toBeNull();
    expect(verifyPrincipal(signedWith(Number.MAX_SAFE_INTEGER), secret, now)).toBeNull();
  });

  it('accepts only the canonical base64url spelling of the MAC', () => {
    const header = signPrincipal(user, secret);
    const [payload, mac] = header.split('.') as [string, string];
    expect(verifyPrincipal(`${payload}.${mac}`, secret)).toEqual(user);
    // 32 bytes take 43 characters, the last of which has 2 unused bits: padding, set unused bits
    // and stray characters all decode to the same bytes, but are other spellings of the MAC.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const unusedBitsSet = `${mac.slice(0, -1)}${alphabet[alphabet.indexOf(mac.at(-1)!) + 1]}`;
    for (const variant of [`${mac}=`, `${mac}==`, unusedBitsSet, `${mac.slice(0, 20)}*${mac.slice(20)}`, ` ${mac}`, `${mac}!`]) {
      expect(Buffer.from(variant, 'base64url')).toEqual(Buffer.from(mac, 'base64url'));
      expect(verifyPrincipal(`${payload}.${variant}`, secret), variant).toBeNull();
    }
  });

  it('rejects a validly signed payload that is not a principal', () => {
    const payload = Buffer.from(JSON.stringify({ p: { kind: 'admin' }, exp: Date.now() + 60_000 })).toString('base64url');
    const mac = createHmac('sha256', secret).update(payload).digest('base64url');
    expect(verifyPrincipal(`${payload}.${mac}`, secret)).toBeNull();
  });
});

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

  it('rejects a validly signed payload that is not a principal', () => {
    const payload = Buffer.from(JSON.stringify({ p: { kind: 'admin' }, exp: Date.now() + 60_000 })).toString('base64url');
    const mac = createHmac('sha256', secret).update(payload).digest('base64url');
    expect(verifyPrincipal(`${payload}.${mac}`, secret)).toBeNull();
  });
});

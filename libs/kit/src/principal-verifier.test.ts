import { createHmac } from 'node:crypto';
import type { Principal } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { acceptedSecrets, signPrincipal } from './principal-signature';
import { cachingPrincipalVerifier } from './principal-verifier';

const secret = 's'.repeat(40);
const user: Principal = { kind: 'user', userId: 'u1', sessionId: 's1', platformOwner: false };

function manualClock(start: number) {
  const clock = { now: start, read: () => clock.now };
  return clock;
}

describe('caching principal verifier', () => {
  it('answers the signed principal, again on reuse of the same header', () => {
    const clock = manualClock(1_000_000);
    const verify = cachingPrincipalVerifier(secret, clock.read);
    const header = signPrincipal(user, secret, clock.now);
    expect(verify(header)).toEqual(user);
    clock.now += 30_000;
    expect(verify(header)).toEqual(user);
  });

  it('refuses a remembered header once its signature has expired', () => {
    const clock = manualClock(1_000_000);
    const verify = cachingPrincipalVerifier(secret, clock.read);
    const header = signPrincipal(user, secret, clock.now);
    expect(verify(header)).toEqual(user);
    clock.now += 59_000;
    expect(verify(header)).toEqual(user);
    clock.now += 2_000;
    expect(verify(header)).toBeNull();
  });

  it('refuses what the signature check refuses, however often it is presented', () => {
    const clock = manualClock(1_000_000);
    const verify = cachingPrincipalVerifier(secret, clock.read);
    const valid = signPrincipal(user, secret, clock.now);
    const [, mac] = valid.split('.');
    const forged = `${Buffer.from(JSON.stringify({ p: { ...user, platformOwner: true }, exp: clock.now + 60_000 })).toString('base64url')}.${mac}`;
    const otherSecret = signPrincipal(user, 't'.repeat(40), clock.now);
    expect(verify(valid)).toEqual(user);
    for (const header of [forged, otherSecret, `${valid}=`, 'garbage', '', undefined]) {
      expect(verify(header), String(header)).toBeNull();
      expect(verify(header), String(header)).toBeNull();
    }
  });

  it('accepts headers signed with either secret while one is rotated, and no third', () => {
    const [next, old, stranger] = ['n'.repeat(40), 'o'.repeat(40), 'x'.repeat(40)];
    const verify = cachingPrincipalVerifier(acceptedSecrets(next, old));
    expect(verify(signPrincipal(user, next))).toEqual(user);
    expect(verify(signPrincipal(user, old))).toEqual(user);
    expect(verify(signPrincipal(user, stranger))).toBeNull();
    expect(cachingPrincipalVerifier(acceptedSecrets(next, undefined))(signPrincipal(user, old))).toBeNull();
  });

  it('does not remember a far-future signature that becomes acceptable later', () => {
    const clock = manualClock(1_000_000);
    const verify = cachingPrincipalVerifier(secret, clock.read);
    const payload = Buffer.from(JSON.stringify({ p: user, exp: clock.now + 120_000 })).toString('base64url');
    const early = `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
    expect(verify(early)).toBeNull();
    clock.now += 60_000;
    expect(verify(early)).toEqual(user);
  });

  it('hands out the remembered principal frozen, so no request can change it for the next', () => {
    const verify = cachingPrincipalVerifier(secret);
    const header = signPrincipal(user, secret);
    const principal = verify(header) as { platformOwner: boolean };
    expect(() => {
      principal.platformOwner = true;
    }).toThrow(TypeError);
    expect(verify(header)).toEqual(user);
  });
});

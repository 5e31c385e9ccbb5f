import { acceptedSecrets } from '@platform/kit';
import { describe, expect, it } from 'vitest';
import { issueRealtimeToken, REALTIME_TOKEN_LIFETIME_MS, verifyRealtimeToken } from './realtime-token';

const claims = { userId: 'u1', sessionHash: 'a'.repeat(64) };
const [next, old] = ['n'.repeat(40), 'o'.repeat(40)];
const now = 1_000_000;

describe('realtime tokens', () => {
  it('are accepted under the secret that signed them until they expire', () => {
    const { token, expiresAt } = issueRealtimeToken(claims, next, now);
    expect(expiresAt).toBe(now + REALTIME_TOKEN_LIFETIME_MS);
    expect(verifyRealtimeToken(token, next, now)).toEqual(claims);
    expect(verifyRealtimeToken(token, next, expiresAt + 1)).toBeNull();
  });

  it("from a gateway on the other secret of a rotation are accepted while the fallback names it, and not after", () => {
    const fromOldGateway = issueRealtimeToken(claims, old, now).token;
    expect(verifyRealtimeToken(fromOldGateway, acceptedSecrets(next, old), now)).toEqual(claims);
    expect(verifyRealtimeToken(fromOldGateway, acceptedSecrets(next, undefined), now)).toBeNull();
  });

  it('are refused when changed, whatever the secrets', () => {
    const { token } = issueRealtimeToken(claims, next, now);
    const [payload, mac] = token.split('.');
    const otherUser = Buffer.from(JSON.stringify({ u: 'u2', s: claims.sessionHash, exp: now + 60_000 })).toString('base64url');
    for (const changed of [`${otherUser}.${mac}`, `${payload}.${mac!.slice(1)}`, payload!, '']) {
      expect(verifyRealtimeToken(changed, acceptedSecrets(next, old), now), changed).toBeNull();
    }
  });
});

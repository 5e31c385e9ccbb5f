import { describe, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { httpCaller, registerAccount } from './testing/platform-http';
import { allInOneForTests } from './testing/platforms-on-disk';

/**
 * Behind one load balancer (TRUST_PROXY=1) the client's address is the entry the balancer
 * appended to X-Forwarded-For, the right-most: what a client wrote before it, its left-most
 * entries included, changes nothing. The test client plays the balancer.
 */
const { call, platform } = allInOneForTests('trust-proxy-', { TRUST_PROXY: '1' });

/** A wrong sign-in sent through the balancer for `client`, after entries the client forged. */
function failedSignIn(client: string, forged: string) {
  return fetch(`${platform().url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `${forged}, ${client}` },
    body: JSON.stringify({ email: `nobody-${forged}@example.org`, password: 'a wrong guess' }),
  });
}

describe('TRUST_PROXY with one trusted hop', () => {
  it('counts sign-in failures by the address the balancer saw, whatever the client puts in front of it', async () => {
    const client = '203.0.113.9';
    // 20 failures an address in 15 minutes (docs/identity.md), each with another forged address.
    for (let attempt = 0; attempt < 20; attempt += 1) expect((await failedSignIn(client, `198.51.100.${attempt}`)).status).toBe(401);
    const refused = await failedSignIn(client, '192.0.2.200');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { code: string }).code).toBe('IDENTITY_TOO_MANY_ATTEMPTS');
    // Another client behind the balancer keeps its own budget.
    expect((await failedSignIn('203.0.113.10', '203.0.113.9')).status).toBe(401);
  });

  it("lists a session with the balancer's address for the client, not the forged one", async () => {
    const registered = await fetch(`${platform().url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.1, 198.51.100.77' },
      body: JSON.stringify({ email: `listed-${Date.now()}@example.org`, password: 'listed password 1' }),
    });
    const { token } = (await registered.json()) as { token: string };
    const sessions = (await call('GET', '/api/me/sessions', token)).body.sessions;
    expect(sessions.map((session: { address: string }) => session.address)).toEqual(['198.51.100.77']);
  });

  it('without X-Forwarded-For the address is the connection’s', async () => {
    const account = await registerAccount(httpCaller(() => platform().url), 'direct');
    expect((await call('GET', '/api/me/sessions', account.token)).body.sessions[0].address).toMatch(/127\.0\.0\.1/);
  });
});

describe('TRUST_PROXY at start-up', () => {
  const load = (value: string) => loadPlatformConfig({ TRUST_PROXY: value }).TRUST_PROXY;

  it('takes a hop count or the proxies’ addresses and ranges', () => {
    expect([load('false'), load('1'), load('2')]).toEqual([false, 1, 2]);
    expect(load('10.0.0.1, 10.1.0.0/16,2001:db8::/32, loopback')).toEqual(['10.0.0.1', '10.1.0.0/16', '2001:db8::/32', 'loopback']);
  });

  it('refuses true, saying what to set instead, and anything that is not an address', () => {
    expect(() => load('true')).toThrow(/TRUST_PROXY.*every client choose its own address.*number of proxies in front of the gateway \(1 behind one load balancer\)/);
    expect(() => load('10.0.0.1, proxy.internal')).toThrow(/TRUST_PROXY.*"proxy\.internal" is not a hop count, an IP address or a CIDR range/);
    expect(() => load('10.0.0.0/33')).toThrow(/TRUST_PROXY/);
  });
});

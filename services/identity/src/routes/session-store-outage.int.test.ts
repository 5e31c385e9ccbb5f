import { createRedisKeyValue } from '@platform/kv';
import { describeWithOwnServer } from '@platform/testkit';
import { expect, it } from 'vitest';
import { startIdentityPlatform } from '../testing/identity-test-platform';

describeWithOwnServer('redis', 'signed-in users while Redis (the session store) is down', (ownServer) => {
  it('keeps signed-in users working from the gateway cache; new sign-ins answer 503 and create nothing', async () => {
    const server = ownServer();
    const kv = await createRedisKeyValue({ url: server.url });
    const platform = await startIdentityPlatform({ kv });
    try {
      const { token, user } = await platform.register('steady@example.org', { password: 'steady password' });
      const second = await platform.call('POST', '/api/auth/login', { body: { email: 'steady@example.org', password: 'steady password' } });
      expect(second.status).toBe(200);
      expect((await platform.call('GET', '/api/me', { token })).body.id).toBe(user.id);

      await server.stop({ kill: true });

      const me = await platform.call('GET', '/api/me', { token });
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(user.id);
      expect((await platform.call('PUT', '/api/me/profile', { token, body: { firstName: 'Still here' } })).status).toBe(200);

      const login = await platform.call('POST', '/api/auth/login', { body: { email: 'steady@example.org', password: 'steady password' } });
      expect(login.status).toBe(503);
      expect(login.body).toMatchObject({ code: 'IDENTITY_SESSION_STORE_UNAVAILABLE', error: expect.stringContaining('session store') });
      const register = await platform.call('POST', '/api/auth/register', { body: { email: 'newcomer@example.org', password: 'newcomer password' } });
      expect(register.status).toBe(503);
      // A session the gateway never saw cannot be checked: 503, not a silent sign-out.
      expect((await platform.call('GET', '/api/me', { token: second.body.token })).status).toBe(503);

      await server.restart();
      await expect.poll(() => kv.ping(), { timeout: 10_000, interval: 100 }).toBe(true);
      expect((await platform.call('POST', '/api/auth/login', { body: { email: 'newcomer@example.org', password: 'newcomer password' } })).status).toBe(401);
      expect((await platform.call('POST', '/api/auth/login', { body: { email: 'steady@example.org', password: 'steady password' } })).status).toBe(200);
    } finally {
      await platform.close();
      await kv.close();
    }
  }, 30_000);

  it('answers signed-in users from the gateway cache while Redis is connected but answers nothing', async () => {
    const server = ownServer();
    const kv = await createRedisKeyValue({ url: server.url });
    const platform = await startIdentityPlatform({ kv });
    try {
      const { token, user } = await platform.register('frozen@example.org', { password: 'frozen password' });
      expect((await platform.call('GET', '/api/me', { token })).body.id).toBe(user.id);
      server.freeze();
      // Redis keeps its connections open and never answers (a failover that cut it off): TCP alone
      // would give up after many minutes, so the request must not wait for that.
      const me = await Promise.race([platform.call('GET', '/api/me', { token }), new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 10_000))]);
      expect(me).toMatchObject({ status: 200, body: { id: user.id } });
    } finally {
      server.thaw();
      await platform.close();
      await kv.close();
    }
  }, 30_000);
});

import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sessions } from '../auth/sessions';
import { promoteOwner } from '../promotion/promote-owner';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';
import { UserRepository } from '../users/user-repository';

const PASSWORD = 'correct horse battery';
let platform: IdentityTestPlatform;
let owner: { token: string; user: any };

beforeAll(async () => {
  platform = await startIdentityPlatform();
  owner = await platform.register('first-owner@example.org');
  await promoteOwner({ users: new UserRepository(platform.context.store, Date.now), sessions: new Sessions(platform.context.kv, Date.now) }, 'first-owner@example.org');
});
afterAll(async () => {
  await platform?.close();
});

const setOwner = (token: string, userId: string, platformOwner: boolean) => platform.call('PATCH', `/api/admin/users/${userId}`, { token, body: { platformOwner } });

describe('platform owners manage users', () => {
  it('make another user owner (at once, on its live session) and take it back; never the last owner', async () => {
    const colleague = await platform.register('second-owner@example.org');
    expect((await setOwner(colleague.token, owner.user.id, false)).body.code).toBe('IDENTITY_PLATFORM_OWNER_ONLY');
    expect((await setOwner(owner.token, 'no-such-user', true)).status).toBe(404);
    expect((await platform.call('PATCH', `/api/admin/users/${colleague.user.id}`, { token: owner.token, body: { platformOwner: 'yes' } })).status).toBe(400);

    expect((await setOwner(owner.token, colleague.user.id, true)).body.platformOwner).toBe(true);
    expect((await platform.call('GET', '/api/admin/users', { token: colleague.token })).status).toBe(200);
    expect((await setOwner(colleague.token, owner.user.id, false)).status).toBe(200);
    expect((await platform.call('GET', '/api/admin/users', { token: owner.token })).status).toBe(403);
    expect((await setOwner(colleague.token, colleague.user.id, false)).body.code).toBe('IDENTITY_LAST_PLATFORM_OWNER');
    expect((await platform.call('GET', '/api/me', { token: colleague.token })).body.platformOwner).toBe(true);
    expect((await setOwner(colleague.token, owner.user.id, true)).status).toBe(200);
  });

  it("turn off a locked-out user's two-step sign-in, who is told by mail", async () => {
    const locked = await platform.register('lost-phone@example.org');
    const started = await platform.call('POST', '/api/me/two-factor', { token: locked.token, body: { password: PASSWORD } });
    expect((await platform.call('POST', '/api/me/two-factor/confirm', { token: locked.token, body: { code: TOTP.generate({ secret: Secret.fromBase32(started.body.secret) }) } })).status).toBe(200);
    expect((await platform.call('POST', '/api/auth/login', { body: { email: 'lost-phone@example.org', password: PASSWORD } })).body.code).toBe('IDENTITY_TWO_FACTOR_REQUIRED');

    expect((await platform.call('DELETE', `/api/admin/users/${locked.user.id}/two-factor`, { token: locked.token })).body.code).toBe('IDENTITY_PLATFORM_OWNER_ONLY');
    expect((await platform.call('DELETE', `/api/admin/users/${locked.user.id}/two-factor`, { token: owner.token })).status).toBe(204);
    expect((await platform.call('DELETE', `/api/admin/users/${locked.user.id}/two-factor`, { token: owner.token })).body.code).toBe('IDENTITY_TWO_FACTOR_OFF');
    expect((await platform.call('POST', '/api/auth/login', { body: { email: 'lost-phone@example.org', password: PASSWORD } })).status).toBe(200);
    await expect.poll(() => platform.mailsTo('lost-phone@example.org', 'Two-step sign-in is off').length).toBe(1);
  });
});

import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '@platform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadIdentityConfig } from '../config';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

const DAY = 24 * 60 * 60 * 1000;
let now = Date.UTC(2026, 10, 1);
let platform: IdentityTestPlatform;

beforeAll(async () => {
  platform = await startIdentityPlatform({ clock: () => now });
});
afterAll(async () => {
  await platform?.close();
});

function cookieOf(response: { headers: Headers }, name = SESSION_COOKIE): string {
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
  expect(cookie).toBeDefined();
  return cookie!;
}

describe('registration', () => {
  it('answers 201 with the public user, a session cookie and the token', async () => {
    const response = await platform.call('POST', '/api/auth/register', { body: { email: ' Ada@Example.org ', password: 'analytical', displayName: 'Ada' } });
    expect(response.status).toBe(201);
    expect(response.body.user).toMatchObject({ email: 'ada@example.org', displayName: 'Ada', platformOwner: false, profileFields: {}, recentProjects: {} });
    expect(response.body.expiresAt).toBe(now + 30 * DAY);
    expect(JSON.stringify(response.body)).not.toMatch(/passwordHash|argon2/);
    const cookie = cookieOf(response);
    expect(cookie).toContain(`session=${response.body.token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    expect((await platform.call('GET', '/api/me', { token: response.body.token })).body).toMatchObject({ id: response.body.user.id, email: 'ada@example.org' });
  });

  it('refuses a taken email (any case) with 409', async () => {
    await platform.register('grace@example.org');
    const again = await platform.call('POST', '/api/auth/register', { body: { email: 'GRACE@example.org', password: 'another password' } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('IDENTITY_EMAIL_TAKEN');
  });

  it('refuses a bad email or a short password with 400 and creates nothing', async () => {
    for (const body of [{ email: 'not-an-email', password: 'long enough' }, { email: 'short@example.org', password: 'seven77' }, { password: 'long enough' }]) {
      const response = await platform.call('POST', '/api/auth/register', { body });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
    const login = await platform.call('POST', '/api/auth/login', { body: { email: 'short@example.org', password: 'seven77' } });
    expect(login.status).toBe(401);
  });

  it('refuses a misspelt key by name instead of making the account without it', async () => {
    const response = await platform.call('POST', '/api/auth/register', { body: { email: 'misspelt@example.org', password: 'long enough', displayname: 'Ann' } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ field: 'body', message: 'Unrecognized key: "displayname"' }] } });
    expect((await platform.call('POST', '/api/auth/login', { body: { email: 'misspelt@example.org', password: 'long enough' } })).status).toBe(401);
  });

  it('refuses a whitespace-only password with 400 naming password, creates nothing, and trims no password', async () => {
    for (const password of [' '.repeat(8), '\t \n \t \n  ']) {
      const response = await platform.call('POST', '/api/auth/register', { body: { email: 'blank@example.org', password } });
      expect(response.status).toBe(400);
      expect(response.body.details.issues.map((issue: { field: string }) => issue.field)).toContain('body.password');
      expect(response.body.error).toMatch(/password/);
    }
    expect((await platform.call('POST', '/api/auth/login', { body: { email: 'blank@example.org', password: ' '.repeat(8) } })).status).toBe(401);
    await platform.register('spaced@example.org', { password: '  spaced out  ' });
    expect((await platform.call('POST', '/api/auth/login', { body: { email: 'spaced@example.org', password: 'spaced out' } })).status).toBe(401);
    expect((await platform.call('POST', '/api/auth/login', { body: { email: 'spaced@example.org', password: '  spaced out  ' } })).status).toBe(200);
  });

  it('writes the welcome mail to the log instead of sending it', async () => {
    await platform.register('mail@example.org', { displayName: 'Mailed' });
    const mail = platform.logs.find((line) => (line.mail as { to?: string } | undefined)?.to === 'mail@example.org');
    expect(mail?.mail).toMatchObject({ subject: 'Welcome to the platform', text: expect.stringContaining('Mailed') });
  });
});

describe('sign-in and sessions', () => {
  it('signs in with the right password; cookie and bearer both authenticate', async () => {
    const { user } = await platform.register('linus@example.org', { password: 'penguins rock' });
    const login = await platform.call('POST', '/api/auth/login', { body: { email: 'LINUS@example.org', password: 'penguins rock' } });
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(user.id);
    const cookie = cookieOf(login).split(';')[0]!;
    expect((await platform.call('GET', '/api/me', { headers: { cookie } })).body.id).toBe(user.id);
    expect((await platform.call('GET', '/api/me', { token: login.body.token })).body.id).toBe(user.id);
  });

  it('answers one generic 401 for a wrong password and an unknown account', async () => {
    await platform.register('ken@example.org', { password: 'unix forever' });
    const wrong = await platform.call('POST', '/api/auth/login', { body: { email: 'ken@example.org', password: 'wrong password' } });
    const unknown = await platform.call('POST', '/api/auth/login', { body: { email: 'nobody@example.org', password: 'wrong password' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it('answers 401 on /api/me without a session and after logout', async () => {
    expect((await platform.call('GET', '/api/me')).status).toBe(401);
    const { token } = await platform.register('brief@example.org');
    const logout = await platform.call('POST', '/api/auth/logout', { token });
    expect(logout.status).toBe(204);
    expect(logout.headers.getSetCookie().join()).toMatch(/session=;/);
    expect((await platform.call('GET', '/api/me', { token })).status).toBe(401);
    expect((await platform.call('POST', '/api/auth/logout')).status).toBe(204);
  });

  it('documents its 204 answers without a body (logout, removing a project or tenant member)', async () => {
    const document = (await platform.call('GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>> };
    for (const [path, method] of [['/api/auth/logout', 'post'], ['/api/projects/{projectId}/members/{userId}', 'delete'], ['/api/tenants/{tenantId}/members/{userId}', 'delete']] as const) {
      const noContent = document.paths[path]![method]!.responses['204'];
      expect(noContent, `${method} ${path}`).toBeDefined();
      expect(noContent!.content, `${method} ${path}`).toBeUndefined();
    }
  });

  it('expires a session 30 days after creation, however much it is used', async () => {
    const { token } = await platform.register('mayfly@example.org');
    const start = now;
    try {
      now = start + 29 * DAY;
      expect((await platform.call('GET', '/api/me', { token })).status).toBe(200);
      now = start + 30 * DAY - 1;
      expect((await platform.call('GET', '/api/me', { token })).status).toBe(200);
      now = start + 30 * DAY;
      expect((await platform.call('GET', '/api/me', { token })).status).toBe(401);
    } finally {
      now = start + 31 * DAY;
    }
  });
});

describe('sign-in throttling', () => {
  it('locks an account after 5 failures, even for the right password, until the window passes', async () => {
    await platform.register('target@example.org', { password: 'the real one' });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await platform.call('POST', '/api/auth/login', { body: { email: 'target@example.org', password: `guess ${attempt}` } })).status).toBe(401);
    }
    const locked = await platform.call('POST', '/api/auth/login', { body: { email: 'target@example.org', password: 'the real one' } });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('IDENTITY_TOO_MANY_ATTEMPTS');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    now += 15 * 60 * 1000;
    expect((await platform.call('POST', '/api/auth/login', { body: { email: 'target@example.org', password: 'the real one' } })).status).toBe(200);
  });

  it('limits failures per IP across accounts', async () => {
    now += 15 * 60 * 1000;
    await platform.register('bystander@example.org', { password: 'bystander pw' });
    for (let attempt = 0; attempt < 20; attempt += 1) {
      expect((await platform.call('POST', '/api/auth/login', { body: { email: `spray${attempt}@example.org`, password: 'guess' } })).status).toBe(401);
    }
    expect((await platform.call('POST', '/api/auth/login', { body: { email: 'bystander@example.org', password: 'bystander pw' } })).status).toBe(429);
    now += 15 * 60 * 1000;
  });
});

describe('sign-in throttling under parallel attempts', () => {
  it('checks at most 5 of 30 parallel wrong passwords for one account; the rest get 429', async () => {
    now += 15 * 60 * 1000;
    await platform.register('parallel@example.org', { password: 'the right one' });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, attempt) => platform.call('POST', '/api/auth/login', { body: { email: 'parallel@example.org', password: `wrong ${attempt}` } })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status !== 429 && status !== 401)).toEqual([]);
    expect((await platform.call('POST', '/api/auth/login', { body: { email: 'parallel@example.org', password: 'the right one' } })).status).toBe(429);
    now += 15 * 60 * 1000;
  });

  it('does not count successful sign-ins against the IP', async () => {
    await platform.register('regular@example.org', { password: 'regular pw' });
    for (let attempt = 0; attempt < 25; attempt += 1) {
      expect((await platform.call('POST', '/api/auth/login', { body: { email: 'regular@example.org', password: 'regular pw' } })).status).toBe(200);
    }
    now += 15 * 60 * 1000;
  });

  it('does not count against an account the attempts that its address may no longer make: one address cannot lock out accounts past its own limit', async () => {
    const limited = await startIdentityPlatform({ clock: () => now, trustProxy: 1, config: { loginLimits: { perAccount: 3, perIp: 2, windowMs: 15 * 60_000 } } });
    try {
      await limited.register('victim@example.org', { password: 'victim pw' });
      const signIn = (from: string, email: string, password: string) => limited.call('POST', '/api/auth/login', { headers: { 'x-forwarded-for': from }, body: { email, password } });
      for (const email of ['one@example.org', 'two@example.org']) expect((await signIn('203.0.113.7', email, 'guess')).status).toBe(401);
      for (let attempt = 0; attempt < 10; attempt += 1) expect((await signIn('203.0.113.7', 'victim@example.org', `guess ${attempt}`)).status).toBe(429);
      expect((await signIn('198.51.100.4', 'victim@example.org', 'victim pw')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('takes its limits and window from the environment', async () => {
    expect(loadIdentityConfig({}).loginLimits).toEqual({ perAccount: 5, perIp: 20, windowMs: 15 * 60_000 });
    const loginLimits = loadIdentityConfig({ IDENTITY_LOGIN_FAILURES_PER_ACCOUNT: '2', IDENTITY_LOGIN_FAILURES_PER_IP: '50', IDENTITY_LOGIN_WINDOW_MINUTES: '3' }).loginLimits;
    expect(loginLimits).toEqual({ perAccount: 2, perIp: 50, windowMs: 3 * 60_000 });
    expect(() => loadIdentityConfig({ IDENTITY_LOGIN_FAILURES_PER_ACCOUNT: '0' })).toThrow(/IDENTITY_LOGIN_FAILURES_PER_ACCOUNT/);
    const limited = await startIdentityPlatform({ clock: () => now, config: { loginLimits } });
    try {
      await limited.register('configured@example.org', { password: 'configured pw' });
      const signIn = (password: string) => limited.call('POST', '/api/auth/login', { body: { email: 'configured@example.org', password } });
      expect((await signIn('guess one')).status).toBe(401);
      expect((await signIn('guess two')).status).toBe(401);
      const locked = await signIn('configured pw');
      expect([locked.status, locked.body.code, locked.headers.get('retry-after')]).toEqual([429, 'IDENTITY_TOO_MANY_ATTEMPTS', '180']);
      now += 3 * 60_000;
      expect((await signIn('configured pw')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('registration throttling', () => {
  it('answers 429 with Retry-After past the per-address limit, also in parallel, and creates nothing more', async () => {
    const limited = await startIdentityPlatform({ clock: () => now, config: { registrationLimit: { perIp: 3, windowMs: 60 * 60_000 } } });
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, index) => limited.call('POST', '/api/auth/register', { body: { email: `burst${index}@example.org`, password: 'burst password' } })),
      );
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
      const refused = answers.filter((answer) => answer.status === 429);
      expect(refused).toHaveLength(9);
      expect(refused[0]!.body.code).toBe('IDENTITY_TOO_MANY_REGISTRATIONS');
      expect(Number(refused[0]!.headers.get('retry-after'))).toBe(3600);
      const signIns = await Promise.all(answers.map((_, index) => limited.call('POST', '/api/auth/login', { body: { email: `burst${index}@example.org`, password: 'burst password' } })));
      expect(signIns.filter((answer) => answer.status === 200)).toHaveLength(3);
      now += 60 * 60_000;
      expect((await limited.call('POST', '/api/auth/register', { body: { email: 'after-window@example.org', password: 'burst password' } })).status).toBe(201);
    } finally {
      await limited.close();
    }
  });

  it('counts IPv6 clients by their /64 and IPv4-mapped addresses as the IPv4 address, so other addresses of one client share its budget', async () => {
    const limited = await startIdentityPlatform({ clock: () => now, trustProxy: 1, config: { registrationLimit: { perIp: 2, windowMs: 60 * 60_000 } } });
    try {
      const register = (from: string, email: string) =>
        limited.call('POST', '/api/auth/register', { headers: { 'x-forwarded-for': from }, body: { email: `${email}@example.org`, password: 'prefix password' } });
      expect((await register('2001:db8:1:2::a', 'six-a')).status).toBe(201);
      expect((await register('2001:db8:1:2:ffff:ffff:ffff:ffff', 'six-b')).status).toBe(201);
      const refused = await register('2001:db8:1:2::c', 'six-c');
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('IDENTITY_TOO_MANY_REGISTRATIONS');
      // The next /64 is another client.
      expect((await register('2001:db8:1:3::a', 'six-d')).status).toBe(201);
      expect((await register('192.0.2.7', 'four-a')).status).toBe(201);
      expect((await register('::ffff:192.0.2.7', 'four-b')).status).toBe(201);
      expect((await register('192.0.2.7', 'four-c')).status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('limits to 20 an hour per address by default', () => {
    expect(loadIdentityConfig({}).registrationLimit).toEqual({ perIp: 20, windowMs: 60 * 60_000 });
    expect(loadIdentityConfig({ IDENTITY_REGISTRATIONS_PER_IP: '5', IDENTITY_REGISTRATION_WINDOW_MINUTES: '10' }).registrationLimit).toEqual({ perIp: 5, windowMs: 10 * 60_000 });
    expect(() => loadIdentityConfig({ IDENTITY_REGISTRATIONS_PER_IP: 'many' })).toThrow(/IDENTITY_REGISTRATIONS_PER_IP/);
  });
});

describe('in production', () => {
  it('sets the session cookie Secure as __Host-session, for the whole host and no other', async () => {
    const production = await startIdentityPlatform({ dev: false });
    try {
      const response = await production.call('POST', '/api/auth/register', { body: { email: 'prod@example.org', password: 'production pw' } });
      expect(response.status).toBe(201);
      const cookie = cookieOf(response, SECURE_SESSION_COOKIE);
      expect(cookie).toMatch(/; Secure(;|$)/);
      expect(cookie).toMatch(/; Path=\/(;|$)/);
      expect(cookie).not.toMatch(/Domain=/i);
      expect(response.headers.getSetCookie().filter((line) => line.startsWith(`${SESSION_COOKIE}=`))).toEqual([]);
    } finally {
      await production.close();
    }
  });
});

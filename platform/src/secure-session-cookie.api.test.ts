import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { allInOneForTests } from './testing/platforms-on-disk';

/**
 * Outside development the session cookie is Secure and named `__Host-session`: browsers take such
 * a cookie only from the platform's own host, so a page on a sibling subdomain cannot plant a
 * session (its own, to sign a visitor in as itself) that the platform would read.
 */
const { platform } = allInOneForTests('secure-session-cookie-', { NODE_ENV: 'production', PRINCIPAL_SECRET: 's'.repeat(32) });

const send = (path: string, init: { method?: string; cookie?: string; body?: unknown } = {}) =>
  fetch(`${platform().url}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.cookie ? { cookie: init.cookie } : {}), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

describe('the session cookie in production', () => {
  it('is set as __Host-session (Secure, Path=/, no Domain); the platform reads that name only, and clears it at sign-out', async () => {
    const registered = await send('/api/auth/register', { method: 'POST', body: { email: 'host-cookie@example.org', password: 'host cookie password 1' } });
    expect(registered.status).toBe(201);
    const setCookie = registered.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(new RegExp(`^${SECURE_SESSION_COOKIE}=[^;]+;`));
    expect(setCookie).toMatch(/; Path=\/(;|$)/);
    expect(setCookie).toMatch(/; Secure(;|$)/);
    expect(setCookie).not.toMatch(/Domain=/i);
    const token = ((await registered.json()) as { token: string }).token;

    expect((await send('/api/me', { cookie: `${SECURE_SESSION_COOKIE}=${token}` })).status).toBe(200);
    // A plain `session` cookie is what a sibling subdomain could set for the whole domain: not read.
    const planted = await send('/api/me', { cookie: `${SESSION_COOKIE}=${token}` });
    expect(planted.status).toBe(401);
    expect((await send('/api/me', { cookie: `${SESSION_COOKIE}=${token}; ${SECURE_SESSION_COOKIE}=not-a-session` })).status).toBe(401);

    const described = (await (await send('/api/openapi.json')).json()) as { components: { securitySchemes: { sessionCookie: { name: string } } } };
    expect(described.components.securitySchemes.sessionCookie.name).toBe(SECURE_SESSION_COOKIE);

    const signedOut = await send('/api/auth/logout', { method: 'POST', cookie: `${SECURE_SESSION_COOKIE}=${token}` });
    expect(signedOut.status).toBeLessThan(300);
    expect(signedOut.headers.get('set-cookie')).toMatch(new RegExp(`^${SECURE_SESSION_COOKIE}=;.*Expires=Thu, 01 Jan 1970.*Secure`));
    expect((await send('/api/me', { cookie: `${SECURE_SESSION_COOKIE}=${token}` })).status).toBe(401);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { registerAccount } from './testing/platform-http';
import { allInOneForTests } from './testing/platforms-on-disk';

/** The session cookie sent by a page of another origin, through the gateway: read, yes; change, no. */
const { platform, call } = allInOneForTests('cross-origin-cookie-');
let person: { token: string; userId: string };

beforeAll(async () => {
  person = await registerAccount(call, 'cookie-holder');
});

/** A request as a browser sends it with the session cookie, from where `site` says (`Sec-Fetch-Site`; none: a browser that does not say). */
async function withCookie(method: string, path: string, site: string | undefined, body?: unknown) {
  const response = await fetch(`${platform().url}${path}`, {
    method,
    headers: { cookie: `session=${person.token}`, ...(site ? { 'sec-fetch-site': site } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const projectNames = async () => ((await call('GET', '/api/projects', person.token)).body.items as Array<{ name: string }>).map((project) => project.name).sort();

describe('the session cookie from another origin', () => {
  it('changes nothing from a page of another origin of the same site, or of another site; reads pass', async () => {
    for (const site of ['same-site', 'cross-site']) {
      const refused = await withCookie('POST', '/api/projects', site, { name: `from ${site}` });
      expect(refused, site).toMatchObject({ status: 403, body: { code: 'GATEWAY_CROSS_ORIGIN_COOKIE' } });
      expect((await withCookie('GET', '/api/me', site)).body.id, site).toBe(person.userId);
    }
    expect(await projectNames()).toEqual([]);
  });

  it("works from the platform's own pages, from a browser that does not say, and with a bearer token from anywhere", async () => {
    expect((await withCookie('POST', '/api/projects', 'same-origin', { name: 'own page' })).status).toBe(201);
    expect((await withCookie('POST', '/api/projects', undefined, { name: 'older browser' })).status).toBe(201);
    const bearer = await fetch(`${platform().url}/api/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${person.token}`, 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bearer' }),
    });
    expect(bearer.status).toBe(201);
    expect(await projectNames()).toEqual(['bearer', 'older browser', 'own page']);
  });
});

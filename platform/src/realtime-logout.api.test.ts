import { describe, expect, it } from 'vitest';
import { allInOneForTests } from './testing/platforms-on-disk';

/**
 * Sessions of open streams are checked again only once a minute here, so a stream that ends
 * within this bound was closed by identity's logout notice, not by the periodic check.
 */
const LOGOUT_NOTICE_BOUND_MS = 1_000;

const { platform, call } = allInOneForTests('realtime-logout-', { REALTIME_SESSION_CHECK_MS: '60000' });

describe("identity's logout ends realtime", () => {
  it('closes the open stream as soon as the logout is announced and refuses a token issued before it', async () => {
    const registered = await call('POST', '/api/auth/register', undefined, { email: `logout-${Date.now()}@example.org`, password: 'logout password 1' });
    expect(registered.status).toBe(201);
    const session = registered.body.token as string;
    const project = await call('POST', '/api/projects', session, { name: 'logout project' });
    expect(project.status).toBe(201);
    const streamPath = (token: string) => `/api/realtime/projects/${project.body.id}/sync?token=${encodeURIComponent(token)}`;
    const [forOpen, forLater] = [await call('GET', '/api/realtime/token', session), await call('GET', '/api/realtime/token', session)];

    const abort = new AbortController();
    const response = await fetch(`${platform().url}${streamPath(forOpen.body.token)}`, { signal: abort.signal });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return Date.now();
    })();

    expect((await call('POST', '/api/auth/logout', session)).status).toBe(204);
    const loggedOutAt = Date.now();
    const endedAt = await Promise.race([ended, new Promise<number>((resolve) => setTimeout(() => resolve(Number.POSITIVE_INFINITY), LOGOUT_NOTICE_BOUND_MS + 2_000))]);
    abort.abort();
    expect(endedAt - loggedOutAt).toBeLessThanOrEqual(LOGOUT_NOTICE_BOUND_MS);

    const refused = await call('GET', streamPath(forLater.body.token));
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('REALTIME_TOKEN_INVALID');
  }, 20_000);
});

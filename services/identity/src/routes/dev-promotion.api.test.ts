import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryKeyValue } from '@platform/kv';
import { createEmbeddedStore } from '@platform/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

const MINUTE = 60 * 1000;
let now = Date.UTC(2026, 10, 1);
const clock = () => now;
const opened: IdentityTestPlatform[] = [];

async function platform(options: { dev?: boolean } = {}) {
  const started = await startIdentityPlatform({ clock, ...options });
  opened.push(started);
  return started;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.close()));
});

/** The promotion path the server logged, as an operator would copy it. */
function loggedPromotionPaths(p: IdentityTestPlatform): string[] {
  return p.logs.map((line) => line.promotionPath).filter((path): path is string => typeof path === 'string');
}

describe('development owner promotion (state table)', () => {
  it('none → pending: the first registration logs a promotion URL with a 256-bit token; later ones do not', async () => {
    const p = await platform();
    await p.register('first@example.org');
    await p.register('second@example.org');
    const paths = loggedPromotionPaths(p);
    expect(paths).toHaveLength(1);
    expect(paths[0]).toMatch(/^\/api\/admin\/dev\/platform-owner\/[0-9a-f]{64}$/);
  });

  it('pending → consumed: the user becomes platform owner; the token is then used up', async () => {
    const p = await platform();
    const { token } = await p.register('owner@example.org', { displayName: 'Olga' });
    const [path] = loggedPromotionPaths(p);
    const promoted = await p.call('GET', path!);
    expect(promoted.status).toBe(200);
    expect(promoted.body).toEqual({ success: true, message: expect.stringContaining('Olga') });
    expect((await p.call('GET', '/api/me', { token })).body.platformOwner).toBe(true);
    const again = await p.call('GET', path!);
    expect(again.status).toBe(403);
    expect(again.body.error).toBe('Invalid or expired token');
  });

  it('pending → expired after 10 minutes', async () => {
    const p = await platform();
    const { token } = await p.register('late@example.org');
    const [path] = loggedPromotionPaths(p);
    now += 10 * MINUTE;
    const response = await p.call('GET', path!);
    expect(response.status).toBe(403);
    expect(response.body.error).toBe('Invalid or expired token');
    expect((await p.call('GET', '/api/me', { token })).body.platformOwner).toBe(false);
  });

  it('pending → gone when identity restarts', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'promotion-restart-'));
    const kv = createMemoryKeyValue({ now: clock });
    try {
      const firstStore = await createEmbeddedStore({ dataDir });
      const before = await startIdentityPlatform({ clock, kv, store: firstStore });
      await before.register('restart@example.org');
      const [path] = loggedPromotionPaths(before);
      await before.close();
      await firstStore.close();

      const secondStore = await createEmbeddedStore({ dataDir });
      const after = await startIdentityPlatform({ clock, kv, store: secondStore });
      try {
        const response = await after.call('GET', path!);
        expect(response.status).toBe(403);
        expect(response.body.error).toBe('Invalid or expired token');
      } finally {
        await after.close();
        await secondStore.close();
      }
    } finally {
      await kv.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses while more than one user exists, keeping the token', async () => {
    const p = await platform();
    await p.register('one@example.org');
    const [path] = loggedPromotionPaths(p);
    await p.register('two@example.org');
    const response = await p.call('GET', path!);
    expect(response.status).toBe(403);
    expect(response.body.error).toBe('This endpoint only works when there is exactly 1 user');
  });

  it('refuses unknown and malformed tokens', async () => {
    const p = await platform();
    await p.register('solo@example.org');
    for (const token of ['0'.repeat(64), 'not-a-token', '..%2F..%2Fetc']) {
      const response = await p.call('GET', `/api/admin/dev/platform-owner/${token}`);
      expect(response.status).toBe(403);
      expect(response.body.error).toBe('Invalid or expired token');
    }
  });

  it('does not exist outside development: 404 with an empty body, and no token is logged', async () => {
    const p = await platform({ dev: false });
    await p.register('prod-owner@example.org');
    expect(loggedPromotionPaths(p)).toEqual([]);
    const response = await p.call('GET', `/api/admin/dev/platform-owner/${'a'.repeat(64)}`);
    expect(response.status).toBe(404);
    expect(response.body).toBe('');
  });
});

import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createEmbeddedStore } from '@platform/storage';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { startIdentityPlatform } from '../testing/identity-test-platform';
import { USERS_COLLECTION } from '../users/user-record';

const run = promisify(execFile);

async function twoFactorOff(email: string, dataDir: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run('pnpm', ['--silent', '--filter', 'identity', 'two-factor-off', email], { env: { ...process.env, DATA_DIR: dataDir, MONGO_URL: '', REDIS_URL: '' } });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, output: failed.stderr };
  }
}

describe('pnpm --filter identity two-factor-off <email>', () => {
  it("turns a locked-out user's two-step sign-in off on the configured store, and says so for an unknown email or one without it", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'two-factor-off-'));
    const store = await createEmbeddedStore({ dataDir });
    const platform = await startIdentityPlatform({ store });
    const { token, user } = await platform.register('Locked-Out@Example.org');
    const started = await platform.call('POST', '/api/me/two-factor', { token, body: { password: 'correct horse battery' } });
    const code = TOTP.generate({ secret: Secret.fromBase32(started.body.secret) });
    expect((await platform.call('POST', '/api/me/two-factor/confirm', { token, body: { code } })).status).toBe(200);
    await platform.close();
    await store.close();

    expect(await twoFactorOff('nobody@example.org', dataDir)).toMatchObject({ code: 1, output: expect.stringContaining('No account with the email nobody@example.org') });
    expect(await twoFactorOff('LOCKED-OUT@example.org', dataDir)).toMatchObject({ code: 0, output: expect.stringContaining('Two-step sign-in is off for locked-out@example.org') });
    expect(await twoFactorOff('locked-out@example.org', dataDir)).toMatchObject({ code: 1, output: expect.stringContaining('already off') });

    const reopened = await createEmbeddedStore({ dataDir });
    const stored = await reopened.collection<{ id: string; twoFactor?: unknown; twoFactorEnabledAt?: number }>(USERS_COLLECTION).findById(user.id);
    expect(stored?.twoFactor).toBeUndefined();
    expect(stored?.twoFactorEnabledAt).toBeUndefined();
    await reopened.close();
  }, 60_000);
});

import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createEmbeddedStore } from '@platform/storage';
import { describe, expect, it } from 'vitest';
import { startIdentityPlatform } from '../testing/identity-test-platform';
import { USERS_COLLECTION } from '../users/user-record';

const run = promisify(execFile);

async function promote(email: string, dataDir: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run('pnpm', ['--silent', '--filter', 'identity', 'promote-owner', email], { env: { ...process.env, DATA_DIR: dataDir, MONGO_URL: '', REDIS_URL: '' } });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, output: failed.stderr };
  }
}

describe('pnpm --filter identity promote-owner <email>', () => {
  it('makes the account platform owner on the configured store, and fails for an unknown email', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'promote-owner-'));
    const store = await createEmbeddedStore({ dataDir });
    const platform = await startIdentityPlatform({ store });
    const { user } = await platform.register('Operator@Example.org');
    await platform.register('someone@example.org');
    await platform.close();
    await store.close();

    expect(await promote('nobody@example.org', dataDir)).toMatchObject({ code: 1, output: expect.stringContaining('No account with the email nobody@example.org') });
    expect(await promote('OPERATOR@example.org', dataDir)).toMatchObject({ code: 0, output: expect.stringContaining('operator@example.org') });

    const reopened = await createEmbeddedStore({ dataDir });
    const users = reopened.collection<{ id: string; platformOwner: boolean }>(USERS_COLLECTION);
    expect((await users.findById(user.id))?.platformOwner).toBe(true);
    expect((await users.findOne({ email: 'someone@example.org' }))?.platformOwner).toBe(false);
    await reopened.close();
  }, 60_000);
});

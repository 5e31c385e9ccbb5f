import { resolve } from 'node:path';
import { ConfigError, parseEnv } from '@platform/kit';
import { openKeyValue, REDIS_KEY_PREFIX_PATTERN } from '@platform/kv';
import { openDocumentStore } from '@platform/storage';
import { z } from 'zod';
import { Sessions } from '../auth/sessions';
import { promoteOwner } from '../promotion/promote-owner';
import { UserRepository } from '../users/user-repository';

/**
 * `pnpm --filter identity promote-owner <email>`: makes an account platform owner on the backends
 * the environment names (MONGO_URL / MONGO_DATABASE or DATA_DIR, and REDIS_URL for live
 * sessions), the same variables the platform reads. With the embedded store the platform must be
 * stopped first: only one process may open its files.
 */
const environment = z.object({
  DATA_DIR: z.string().default('./.data'),
  MONGO_URL: z.url().optional(),
  MONGO_DATABASE: z.string().default('platform'),
  REDIS_URL: z.url().optional(),
  REDIS_KEY_PREFIX: z.string().regex(REDIS_KEY_PREFIX_PATTERN).optional(),
});

async function main(email: string | undefined): Promise<number> {
  if (!email) {
    console.error('usage: pnpm --filter identity promote-owner <email>');
    return 2;
  }
  const config = parseEnv(environment);
  // pnpm runs the script in services/identity; a relative DATA_DIR means the caller's directory.
  const dataDir = resolve(process.env.INIT_CWD ?? process.cwd(), config.DATA_DIR);
  const [store, kv] = await Promise.all([openDocumentStore({ mongoUrl: config.MONGO_URL, mongoDatabase: config.MONGO_DATABASE, dataDir }), openKeyValue({ redisUrl: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX, dataDir })]);
  try {
    const user = await promoteOwner({ users: new UserRepository(store, Date.now), sessions: new Sessions(kv, Date.now) }, email);
    if (!user) {
      console.error(`No account with the email ${email}`);
      return 1;
    }
    console.log(`${user.email} (${user.id}) is now a platform owner`);
    return 0;
  } finally {
    await Promise.allSettled([store.close(), kv.close()]);
  }
}

try {
  process.exitCode = await main(process.argv[2]);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}

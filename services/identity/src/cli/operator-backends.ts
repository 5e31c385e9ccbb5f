import { resolve } from 'node:path';
import { ConfigError, parseEnv } from '@platform/kit';
import { openKeyValue, REDIS_KEY_PREFIX_PATTERN, type KeyValue } from '@platform/kv';
import { openDocumentStore, type DocumentStore } from '@platform/storage';
import { z } from 'zod';

/**
 * The backends an operator command works on: the ones the environment names (MONGO_URL /
 * MONGO_DATABASE or DATA_DIR, and REDIS_URL for live sessions), the same variables the platform
 * reads. With the embedded store the platform must be stopped first: only one process may open
 * its files.
 */
const environment = z.object({
  DATA_DIR: z.string().default('./.data'),
  MONGO_URL: z.url().optional(),
  MONGO_DATABASE: z.string().default('platform'),
  REDIS_URL: z.url().optional(),
  REDIS_KEY_PREFIX: z.string().regex(REDIS_KEY_PREFIX_PATTERN).optional(),
});

/**
 * Runs an operator command `<name> <email>`: opens the backends, runs `work` on them, closes them,
 * and sets the exit code (2 without an email, 1 on failure or when `work` answers a message for
 * stderr, 0 with a message for stdout).
 */
export async function runOperatorCommand(name: string, work: (backends: { store: DocumentStore; kv: KeyValue }, email: string) => Promise<{ ok: boolean; message: string }>): Promise<void> {
  const email = process.argv[2];
  if (!email) {
    console.error(`usage: pnpm --filter identity ${name} <email>`);
    process.exitCode = 2;
    return;
  }
  try {
    const config = parseEnv(environment);
    // pnpm runs the script in services/identity; a relative DATA_DIR means the caller's directory.
    const dataDir = resolve(process.env.INIT_CWD ?? process.cwd(), config.DATA_DIR);
    const [store, kv] = await Promise.all([openDocumentStore({ mongoUrl: config.MONGO_URL, mongoDatabase: config.MONGO_DATABASE, dataDir }), openKeyValue({ redisUrl: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX, dataDir })]);
    try {
      const { ok, message } = await work({ store, kv }, email);
      (ok ? console.log : console.error)(message);
      process.exitCode = ok ? 0 : 1;
    } finally {
      await Promise.allSettled([store.close(), kv.close()]);
    }
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exitCode = 1;
  }
}

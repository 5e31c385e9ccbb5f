import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, type Logger } from '@platform/kit';
import type { PlatformConfig } from './config';

/** Where a development all-in-one keeps its generated principal secret. */
export const PRINCIPAL_SECRET_FILE = 'principal-secret';

const SECRET_BYTES = 32;

async function readSecret(path: string): Promise<string> {
  const secret = (await readFile(path, 'utf8')).trim();
  if (secret.length < 32) throw new ConfigError([`PRINCIPAL_SECRET: ${path} holds fewer than 32 characters; delete it to generate a new one`]);
  // Only this user may read it: a copy readable by others would let them sign principals.
  if (((await stat(path)).mode & 0o077) !== 0) await chmod(path, 0o600);
  return secret;
}

/**
 * The secret that signs principals and realtime tokens: PRINCIPAL_SECRET when set (required in
 * production and whenever processes must share it, see config.ts); otherwise, in a development
 * all-in-one, 32 random bytes generated on first start and kept in DATA_DIR/principal-secret (mode
 * 0600), so signed values stay valid across restarts and no two installations share a secret.
 */
export async function resolvePrincipalSecret(config: Pick<PlatformConfig, 'principalSecret' | 'DATA_DIR'>, logger: Logger): Promise<string> {
  if (config.principalSecret) return config.principalSecret;
  const path = join(config.DATA_DIR, PRINCIPAL_SECRET_FILE);
  await mkdir(config.DATA_DIR, { recursive: true });
  try {
    // 'wx': when two processes start on one DATA_DIR, the second reads the first one's secret.
    await writeFile(path, randomBytes(SECRET_BYTES).toString('hex'), { mode: 0o600, flag: 'wx' });
    logger.info({ path }, 'generated a principal secret for development (set PRINCIPAL_SECRET to choose one)');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readSecret(path);
}

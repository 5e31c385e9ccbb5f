import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, type Logger } from '@platform/kit';
import type { PlatformConfig } from './config';

/** Where a development all-in-one keeps its generated principal secret. */
export const PRINCIPAL_SECRET_FILE = 'principal-secret';
/** Where a development all-in-one keeps its generated webhook secret (ACTIONS_WEBHOOK_SECRET). */
export const WEBHOOK_SECRET_FILE = 'webhook-secret';

const SECRET_BYTES = 32;

async function readSecret(path: string, variable: string): Promise<string> {
  const secret = (await readFile(path, 'utf8')).trim();
  if (secret.length < 32) throw new ConfigError([`${variable}: ${path} holds fewer than 32 characters; delete it to generate a new one`]);
  // Only this user may read it: a copy readable by others would let them sign what it signs.
  if (((await stat(path)).mode & 0o077) !== 0) await chmod(path, 0o600);
  return secret;
}

/**
 * A development secret kept in `<directory>/<file>`: 32 random bytes (hex) generated the first
 * time, mode 0600, read again every later time, so what it signs stays valid across restarts and
 * no two installations share it. `generated`: this call made it. Callers log its path, never it.
 */
export async function keptSecret(directory: string, file: string, variable: string): Promise<{ secret: string; path: string; generated: boolean }> {
  const path = join(directory, file);
  await mkdir(directory, { recursive: true });
  let generated = true;
  try {
    // 'wx': when two processes start on one directory, the second reads the first one's secret.
    await writeFile(path, randomBytes(SECRET_BYTES).toString('hex'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    generated = false;
  }
  return { secret: await readSecret(path, variable), path, generated };
}

async function developmentSecret(dataDir: string, file: string, variable: string, what: string, logger: Logger): Promise<string> {
  const { secret, path, generated } = await keptSecret(dataDir, file, variable);
  if (generated) logger.info({ path }, `generated a ${what} for development (set ${variable} to choose one)`);
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
  return developmentSecret(config.DATA_DIR, PRINCIPAL_SECRET_FILE, 'PRINCIPAL_SECRET', 'principal secret', logger);
}

/**
 * What each project's webhook key is derived from, for a development all-in-one that was given no
 * ACTIONS_WEBHOOK_SECRET: generated once and kept in DATA_DIR/webhook-secret like the principal
 * secret, so webhooks are signed (and `webhookKey` listed) on a plain `pnpm start`, and a
 * receiver's key holds across restarts. Undefined when the variable is set (the actions service
 * reads it), in production (NODE_ENV=production: unset means no signing, as before) and in a
 * process that does not host every service (replicas must share one: set the variable).
 */
export async function resolveDevelopmentWebhookSecret(
  config: Pick<PlatformConfig, 'dev' | 'DATA_DIR'> & { services: ReadonlySet<string> },
  allServices: readonly string[],
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<string | undefined> {
  if (!config.dev || env.ACTIONS_WEBHOOK_SECRET || !allServices.every((name) => config.services.has(name))) return undefined;
  return developmentSecret(config.DATA_DIR, WEBHOOK_SECRET_FILE, 'ACTIONS_WEBHOOK_SECRET', 'webhook secret', logger);
}

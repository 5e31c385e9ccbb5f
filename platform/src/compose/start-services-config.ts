import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { ConfigError, parseEnv } from '@platform/kit';
import { z } from 'zod';
import { WEBHOOK_SECRET_FILE } from '../principal-secret';

const startServicesEnvSchema = z.object({
  // A local run is for development unless told otherwise (the README's default); compose's is production.
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./.data'),
  PRINCIPAL_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Only whether it is set: the actions service checks it. */
  ACTIONS_WEBHOOK_SECRET: z.string().optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
});

export interface StartServicesConfig {
  nodeEnv: 'development' | 'production' | 'test';
  gatewayPort: number;
  /** Where the local backends keep their data across runs. */
  backendDataDir: string;
  principalSecret: string;
  /** True when PRINCIPAL_SECRET was not set and this run made one. */
  generatedSecret: boolean;
  /**
   * Outside production without ACTIONS_WEBHOOK_SECRET: the file under DATA_DIR/services that keeps
   * a generated one across runs (each project's webhook key is derived from it, so a receiver's key
   * must outlive a restart); undefined otherwise (the variable, or in production none: unsigned).
   */
  webhookSecretFile: string | undefined;
  /** The first process's metrics port (the others the following ones; 0: free ports); undefined: no metrics listeners. */
  metricsPort: number | undefined;
}

/**
 * What `pnpm start:services` reads itself; the services read the rest through the compose file.
 * Outside production a missing PRINCIPAL_SECRET becomes a random one for this run (the processes
 * must share one; nothing signed outlives the run anyway), in production it is required; a missing
 * ACTIONS_WEBHOOK_SECRET one kept under DATA_DIR/services (webhookSecretFile).
 */
export function loadStartServicesConfig(env: NodeJS.ProcessEnv, cwd: string): StartServicesConfig {
  const parsed = parseEnv(startServicesEnvSchema, env);
  if (!parsed.PRINCIPAL_SECRET && parsed.NODE_ENV === 'production') {
    throw new ConfigError(['PRINCIPAL_SECRET: required with NODE_ENV=production (at least 32 characters, e.g. openssl rand -hex 32)']);
  }
  const backendDataDir = resolve(cwd, parsed.DATA_DIR, 'services');
  return {
    nodeEnv: parsed.NODE_ENV,
    gatewayPort: parsed.PORT,
    backendDataDir,
    principalSecret: parsed.PRINCIPAL_SECRET ?? randomBytes(32).toString('hex'),
    generatedSecret: !parsed.PRINCIPAL_SECRET,
    webhookSecretFile: parsed.ACTIONS_WEBHOOK_SECRET || parsed.NODE_ENV === 'production' ? undefined : join(backendDataDir, WEBHOOK_SECRET_FILE),
    metricsPort: parsed.METRICS_PORT,
  };
}

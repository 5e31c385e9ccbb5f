import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { ConfigError, parseEnv } from '@platform/kit';
import { z } from 'zod';

const startServicesEnvSchema = z.object({
  // A local run is for development unless told otherwise (the README's default); compose's is production.
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./.data'),
  PRINCIPAL_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
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
  /** The first process's metrics port (the others the following ones; 0: free ports); undefined: no metrics listeners. */
  metricsPort: number | undefined;
}

/**
 * What `pnpm start:services` reads itself; the services read the rest through the compose file.
 * Outside production a missing PRINCIPAL_SECRET becomes a random one for this run (the processes
 * must share one; nothing signed outlives the run anyway), in production it is required.
 */
export function loadStartServicesConfig(env: NodeJS.ProcessEnv, cwd: string): StartServicesConfig {
  const parsed = parseEnv(startServicesEnvSchema, env);
  if (!parsed.PRINCIPAL_SECRET && parsed.NODE_ENV === 'production') {
    throw new ConfigError(['PRINCIPAL_SECRET: required with NODE_ENV=production (at least 32 characters, e.g. openssl rand -hex 32)']);
  }
  return {
    nodeEnv: parsed.NODE_ENV,
    gatewayPort: parsed.PORT,
    backendDataDir: resolve(cwd, parsed.DATA_DIR, 'services'),
    principalSecret: parsed.PRINCIPAL_SECRET ?? randomBytes(32).toString('hex'),
    generatedSecret: !parsed.PRINCIPAL_SECRET,
    metricsPort: parsed.METRICS_PORT,
  };
}

import { parseEnv } from '@platform/kit';
import { z } from 'zod';

const HOUR_MS = 60 * 60 * 1000;

/** The publishing service's environment; each variable is optional. */
export const publishingEnvSchema = z.object({
  /**
   * How a domain's owner proves control of its hostname: `dns` (a TXT record) or `off`, which
   * accepts every verification without a check; `off` is for development only and refused in
   * production (NODE_ENV=production).
   */
  PUBLISHING_DOMAIN_VERIFICATION: z.enum(['dns', 'off']).default('dns'),
  /** How long an unverified domain holds its hostname before another project may claim it. */
  PUBLISHING_DOMAIN_CLAIM_TTL_HOURS: z.coerce.number().positive().max(24 * 30).default(72),
  /** How long one DNS query of a verification may take before it is retried or given up. */
  PUBLISHING_DNS_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3_000),
});

export interface PublishingConfig {
  domainVerification: 'dns' | 'off';
  claimTtlMs: number;
  dnsTimeoutMs: number;
}

/** Reads the environment once; a bad value throws a ConfigError naming the variable. */
export function loadPublishingConfig(env: NodeJS.ProcessEnv = process.env): PublishingConfig {
  const parsed = parseEnv(publishingEnvSchema, env);
  return {
    domainVerification: parsed.PUBLISHING_DOMAIN_VERIFICATION,
    claimTtlMs: Math.round(parsed.PUBLISHING_DOMAIN_CLAIM_TTL_HOURS * HOUR_MS),
    dnsTimeoutMs: parsed.PUBLISHING_DNS_TIMEOUT_MS,
  };
}

import { parseEnv } from '@platform/kit';
import { z } from 'zod';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The audit service's environment; each variable is optional. */
export const auditEnvSchema = z.object({
  /** Days a trail item is kept; unset keeps the trail for ever (it is the record of every change). */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).optional(),
  /** How often each replica checks whether the hourly removal of old items is due (ms). */
  AUDIT_RETENTION_CHECK_MS: z.coerce.number().int().min(100).default(60_000),
});

export interface AuditConfig {
  /** How long trail items are kept, in ms; undefined keeps them for ever. */
  retentionMs?: number;
  retentionCheckMs: number;
}

/** Reads the environment once; a bad value throws a ConfigError naming the variable. */
export function loadAuditConfig(env: NodeJS.ProcessEnv = process.env): AuditConfig {
  const parsed = parseEnv(auditEnvSchema, env);
  return {
    ...(parsed.AUDIT_RETENTION_DAYS === undefined ? {} : { retentionMs: parsed.AUDIT_RETENTION_DAYS * DAY_MS }),
    retentionCheckMs: parsed.AUDIT_RETENTION_CHECK_MS,
  };
}

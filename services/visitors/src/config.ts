import { parseEnv } from '@platform/kit';
import { Cron } from 'croner';
import { z } from 'zod';
import type { RateLimits } from './visitors/rate-limiter';

const cronPattern = z.string().refine((pattern) => {
  try {
    new Cron(pattern, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}, 'not a valid cron pattern (minute hour day month weekday, e.g. 0 3 * * *)');

const timezone = z.string().refine((zone) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}, 'not an IANA time zone such as Europe/Berlin');

export const visitorsEnvSchema = z.object({
  /** When the retention job runs; the server's local time unless VISITORS_RETENTION_TIMEZONE is set. */
  VISITORS_RETENTION_CRON: cronPattern.default('0 3 * * *'),
  VISITORS_RETENTION_TIMEZONE: timezone.optional(),
  /** How often each replica checks whether the next retention occurrence has passed (ms). */
  VISITORS_RETENTION_CHECK_MS: z.coerce.number().int().min(100).default(60_000),
  /** Requests per minute to the visitor routes from one client address (project members are not limited). */
  VISITORS_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(60),
  /** Requests per minute to one kiosk binding of a project (a visitor or visitor-event type), from all public callers together. */
  VISITORS_RATE_LIMIT_PER_PROJECT: z.coerce.number().int().min(1).default(600),
  /** Requests per minute one address may always make to a kiosk binding, even when the binding's budget is spent. */
  VISITORS_RATE_LIMIT_RESERVED_PER_IP: z.coerce.number().int().min(1).default(20),
  /** JSON bytes a public caller may store in one visitor record or event (its `data`): a kiosk form, not a file store. */
  VISITORS_PUBLIC_MAX_DATA_BYTES: z.coerce.number().int().min(1).default(16 * 1024),
  /** Public writes (check-ins, changes, events) one kiosk binding stores per day (UTC), from all public callers together. */
  VISITORS_PUBLIC_WRITES_PER_DAY: z.coerce.number().int().min(1).default(3_000),
});

/** What public callers (kiosks, secret holders) may store; project members are held to the data service's limits only. */
export interface PublicWriteLimits {
  /** JSON bytes of the fields a public caller stores in one visitor record or event. */
  maxDataBytes: number;
  /** Public writes per kiosk binding per day (UTC). */
  perKioskPerDay: number;
}

export interface VisitorsConfig {
  retentionCron: string;
  retentionTimezone?: string;
  /** How often the schedule checks for a due occurrence (ms); the schedule's one minute when unset. */
  retentionCheckMs?: number;
  rateLimit: RateLimits;
  publicWrites: PublicWriteLimits;
}

/** Reads the visitors service's environment; a bad value stops start-up naming the variable. */
export function loadVisitorsConfig(env: NodeJS.ProcessEnv = process.env): VisitorsConfig {
  const parsed = parseEnv(visitorsEnvSchema, env);
  return {
    retentionCron: parsed.VISITORS_RETENTION_CRON,
    ...(parsed.VISITORS_RETENTION_TIMEZONE ? { retentionTimezone: parsed.VISITORS_RETENTION_TIMEZONE } : {}),
    retentionCheckMs: parsed.VISITORS_RETENTION_CHECK_MS,
    rateLimit: {
      perIp: parsed.VISITORS_RATE_LIMIT_PER_IP,
      perKiosk: parsed.VISITORS_RATE_LIMIT_PER_PROJECT,
      reservedPerIp: parsed.VISITORS_RATE_LIMIT_RESERVED_PER_IP,
      windowMs: 60_000,
    },
    publicWrites: {
      maxDataBytes: parsed.VISITORS_PUBLIC_MAX_DATA_BYTES,
      perKioskPerDay: parsed.VISITORS_PUBLIC_WRITES_PER_DAY,
    },
  };
}

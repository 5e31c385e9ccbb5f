import { fileURLToPath } from 'node:url';
import { NATS_NAMESPACE_PATTERN } from '@platform/bus';
import { REDIS_KEY_PREFIX_PATTERN } from '@platform/kv';
import { serviceNames, type ServiceName } from '@platform/contracts';
import { commaList, ConfigError, httpTimeoutsEnvSchema, mailFromProblem, parseEnv, trustProxySetting } from '@platform/kit';
import { tracingEnvSchema } from '@platform/telemetry';
import { z } from 'zod';

const serviceList = commaList.pipe(z.array(z.enum(['all', ...serviceNames])).min(1, 'name at least one service or all'));

const url = z.url();

/** `*`, or an origin as browsers send it: scheme, host and port, no path (`https://app.example.org`). */
const corsOrigin = z.string().refine((value) => value === '*' || (URL.canParse(value) && new URL(value).origin === value), {
  error: (issue) => `${String(issue.input)} is not an origin: scheme://host[:port], no path or trailing slash (or * for any)`,
});

export const platformEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  SERVICES: serviceList.default(['all']),
  DATA_DIR: z.string().default('./.data'),
  /** Where people open the platform (the gateway's address), for links in the log; unset: http://HOST:PORT as listened. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).transform((value) => value.replace(/\/+$/, '')).optional(),
  MONGO_URL: url.optional(),
  MONGO_DATABASE: z.string().regex(/^[A-Za-z0-9_-]{1,60}$/).default('platform'),
  NATS_URL: url.optional(),
  /** Keeps this deployment's events apart from others sharing the NATS server (subjects `<namespace>.platform.>`, stream PLATFORM_<namespace>). */
  NATS_NAMESPACE: z.string().regex(NATS_NAMESPACE_PATTERN, 'must be 1 to 32 letters, digits, _ or -').optional(),
  REDIS_URL: url.optional(),
  /** Prepended to every Redis key, so deployments (or test platforms) sharing one Redis keep their sessions and counters apart. */
  REDIS_KEY_PREFIX: z.string().regex(REDIS_KEY_PREFIX_PATTERN, 'must be 1 to 64 letters, digits or _ - : .').optional(),
  PRINCIPAL_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Another secret whose signatures are accepted (never used to sign), while PRINCIPAL_SECRET is rotated across processes. */
  PRINCIPAL_SECRET_FALLBACK: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  /** How many proxies are in front of the gateway, or their addresses, so X-Forwarded-For's right entry is believed; `true` is refused. */
  TRUST_PROXY: trustProxySetting,
  /** Origins whose browser applications may call the API (CORS), comma-separated, or `*` for any; unset: same-origin only. */
  CORS_ORIGINS: commaList.pipe(z.array(corsOrigin)).default([]),
  /** Requests one caller (a signed-in user, else a client address) may send per window; unset: no limit. */
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).optional(),
  /** The rate limit's window (ms). */
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
  /** The realtime sync channel; `false` makes /api/realtime/token answer 503 and clients poll. */
  REALTIME_ENABLED: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  /** How often open realtime streams' sessions are checked again (expiry, and logouts whose notice was missed). */
  REALTIME_SESSION_CHECK_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /**
   * How often an idle realtime stream carries a keep-alive comment, so proxies keep it open; each
   * stream announces it in its `ready` event and sync clients take a stream silent for twice this as dead.
   */
  REALTIME_KEEP_ALIVE_MS: z.coerce.number().int().min(1_000).max(300_000).default(15_000),
  /** Open realtime streams one user may hold on one gateway process, across its sessions and tokens; past it 429. */
  REALTIME_MAX_STREAMS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Open realtime streams from one client address (an IPv6 client's /64) on one gateway process; past it 429. */
  REALTIME_MAX_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(50),
  /** Open realtime streams on one gateway process, kept below its file-descriptor limit; past it 429. */
  REALTIME_MAX_STREAMS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** A realtime stream whose unsent bytes would pass this is closed (its client reads too slowly; it reconnects and pulls). */
  REALTIME_MAX_BUFFERED_BYTES: z.coerce.number().int().min(4_096).max(64 * 1024 * 1024).default(256 * 1024),
  /**
   * How long a process may answer from its cached project standing when a change's notice from
   * another process was missed (the bus was down); notices make changes hold sooner (docs/architecture.md).
   */
  PROJECT_ACCESS_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(1_000),
  /** How often a microservice gateway reads its services' OpenAPI documents again (served merged at /api/openapi.json). */
  API_DOCS_REFRESH_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),
  /** The built web console the gateway serves at /console (`pnpm install` builds it there). */
  CONSOLE_DIR: z.string().default(fileURLToPath(new URL('../../apps/console/dist', import.meta.url))),
  /** The repository's guides (`docs/`), served at /docs/*.md for the links of /api/docs and /llm.txt. */
  GUIDES_DIR: z.string().default(fileURLToPath(new URL('../../docs', import.meta.url))),
  /** nodemailer's connection URL; another scheme made nodemailer throw a TypeError at start-up, not a named error. */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL, e.g. smtps://user:pass@host:465' }).optional(),
  /** The sender of every mail: one mailbox, checked at start-up rather than refused by the SMTP server at the first mail. */
  MAIL_FROM: z
    .string()
    .default('Platform <no-reply@localhost>')
    .superRefine((from, context) => {
      const problem = mailFromProblem(from);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
  IDENTITY_URL: url.optional(),
  DATA_URL: url.optional(),
  AUDIT_URL: url.optional(),
  PUBLISHING_URL: url.optional(),
  ACTIONS_URL: url.optional(),
  VISITORS_URL: url.optional(),
  /** Serve Prometheus metrics at `GET /metrics` on this port of its own (unset: no metrics listener). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /**
   * On a graceful stop, how long the in-process bus's durables (audit trail, actions, publishing's cache) may
   * take to handle what is queued before the process closes anyway; their backlog lives only in memory.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** All-in-one: health turns degraded once the process's resident memory reaches 90% of this (unset: no budget). */
  EMBEDDED_MEMORY_BUDGET_MB: z.coerce.number().int().min(64).optional(),
  ...httpTimeoutsEnvSchema.shape,
  ...tracingEnvSchema.shape,
});

export type PlatformEnv = z.output<typeof platformEnvSchema>;

export interface PlatformConfig extends Omit<PlatformEnv, 'SERVICES' | 'PRINCIPAL_SECRET' | 'PRINCIPAL_SECRET_FALLBACK'> {
  services: ReadonlySet<ServiceName>;
  /** PRINCIPAL_SECRET; unset only in a development all-in-one, which keeps a generated one under DATA_DIR (principal-secret.ts). */
  principalSecret: string | undefined;
  /** PRINCIPAL_SECRET_FALLBACK: accepted besides principalSecret, never used to sign. */
  principalSecretFallback: string | undefined;
  dev: boolean;
}

/** Reads and checks the environment once; a bad value throws a ConfigError naming it. */
export function loadPlatformConfig(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const parsed = parseEnv(platformEnvSchema, env);
  const dev = parsed.NODE_ENV !== 'production';
  const { SERVICES, PRINCIPAL_SECRET, PRINCIPAL_SECRET_FALLBACK, ...rest } = parsed;
  const services = new Set<ServiceName>(SERVICES.includes('all') ? serviceNames : (SERVICES as ServiceName[]));
  if (!PRINCIPAL_SECRET && !dev) {
    throw new ConfigError(['PRINCIPAL_SECRET: required in production (at least 32 characters)']);
  }
  if (!PRINCIPAL_SECRET && services.size < serviceNames.length) {
    throw new ConfigError(['PRINCIPAL_SECRET: required when SERVICES does not name every service: the processes must share it (at least 32 characters)']);
  }
  if (PRINCIPAL_SECRET_FALLBACK && !PRINCIPAL_SECRET) {
    throw new ConfigError(['PRINCIPAL_SECRET_FALLBACK: set only beside PRINCIPAL_SECRET, while rotating it (docs/architecture.md, The principal secret)']);
  }
  if (PRINCIPAL_SECRET_FALLBACK && PRINCIPAL_SECRET_FALLBACK === PRINCIPAL_SECRET) {
    throw new ConfigError(['PRINCIPAL_SECRET_FALLBACK: is PRINCIPAL_SECRET itself; it names the other secret of a rotation, the old one or the next']);
  }
  // A stream quieter than the idle limit would be closed by the gateway's own connection timeout.
  if (parsed.REALTIME_KEEP_ALIVE_MS >= parsed.HTTP_IDLE_TIMEOUT_MS) {
    throw new ConfigError([`REALTIME_KEEP_ALIVE_MS: must be below HTTP_IDLE_TIMEOUT_MS (${parsed.HTTP_IDLE_TIMEOUT_MS}), else idle realtime streams are cut`]);
  }
  return { ...rest, services, principalSecret: PRINCIPAL_SECRET, principalSecretFallback: PRINCIPAL_SECRET_FALLBACK, dev };
}

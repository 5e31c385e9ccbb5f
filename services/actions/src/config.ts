import { commaList, ConfigError, parseEnv } from '@platform/kit';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { MANUAL_RUN_LIMITS, type ManualRunLimits } from './executor/manual-run-slots';
import { RUN_LEASE_MS } from './executor/run-store';

const cidr = z.string().refine((value) => ipaddr.isValidCIDR(value), 'must be a CIDR range such as 10.0.0.0/8 or ::1/128');

/** The actions service's environment; each variable is optional. */
export const actionsEnvSchema = z.object({
  /** Networks a webhook may reach although they are private, loopback or link-local (SSRF guard exceptions). */
  ACTIONS_WEBHOOK_ALLOWED_NETWORKS: commaList.pipe(z.array(cidr)).default([]),
  /** What each project's webhook key is derived from (never a key itself), for blocks without a `secret`. */
  ACTIONS_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** How long a webhook may take when its block sets no `timeoutMs`. */
  ACTIONS_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(5_000),
  /** The wait before a webhook's second attempt; each later one waits four times longer (1 s, 4 s, 16 s). */
  ACTIONS_WEBHOOK_RETRY_DELAY_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
  /** Action writes that trigger actions that write...: the chain stops at this depth. */
  ACTIONS_MAX_DEPTH: z.coerce.number().int().min(1).max(20).default(3),
  /**
   * Live actions one project may hold. Every document event of the project reads each candidate
   * action's triggers, and the list answers all of them at once: without a bound, a member's
   * thousands of actions slowed every write of the project and every list.
   */
  ACTIONS_MAX_PER_PROJECT: z.coerce.number().int().min(1).max(100_000).default(500),
  /** The writes all the runs of one chain (started by one person's write) may attempt together. */
  ACTIONS_MAX_CHAIN_WRITES: z.coerce.number().int().min(1).max(100_000).default(100),
  /**
   * Document events the executor handles at the same time in one process. Each waits for its run
   * records to reach the store, so under a write load a subscription handles a few dozen a second:
   * with 4, one action on a busy type fell behind an all-in-one PATCH load without bound.
   */
  ACTIONS_EXECUTOR_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(64),
  /**
   * Of those, how many one project's events may take at once while the project is slow (an event
   * of it took more than a second within the last minute); its further events wait on the bus
   * meanwhile. Default: a quarter of ACTIONS_EXECUTOR_CONCURRENCY (at least 1).
   */
  ACTIONS_PROJECT_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  /**
   * Days a run record is kept. At least 8: the bus keeps events 7 days, and a run's record is
   * what keeps a redelivered event from running its action twice.
   */
  ACTIONS_RUN_RETENTION_DAYS: z.coerce.number().int().min(8).max(3650).default(30),
  /** How often each replica checks whether the hourly removal of old runs is due (ms). */
  ACTIONS_RUN_RETENTION_CHECK_MS: z.coerce.number().int().min(100).default(60_000),
  /**
   * The executor's ack wait on the bus (ms): an event whose handler neither finishes nor says it is
   * still at it (every third of this) within it is delivered again, e.g. after its process died.
   */
  ACTIONS_EXECUTOR_ACK_WAIT_MS: z.coerce.number().int().min(300).max(3_600_000).default(30_000),
  /**
   * A run still `running` whose lease was not renewed (every third of this) for this long is taken
   * for cut off: a redelivery of its event, or the hourly job for runs by hand, marks it interrupted.
   * Until then the redelivery waits, and with it its project's later events: short, so a crash
   * holds a project's actions up for seconds, not minutes.
   */
  ACTIONS_RUN_LEASE_MS: z.coerce.number().int().min(300).max(86_400_000).default(RUN_LEASE_MS),
});

/**
 * How long one run may take, all its blocks together. A call-webhook block alone may take about
 * 5 minutes at its most (four 30 s attempts, waits of up to a minute between them), so 100 of them
 * held an executor slot for hours; past the budget the block under way stops and the rest fail.
 */
export const RUN_TIME_BUDGET_MS = 5 * 60_000;

export interface ActionsConfig {
  webhookAllowedNetworks: string[];
  webhookSecret?: string;
  webhookTimeoutMs: number;
  /** The wait before a webhook's second attempt (ms); each later one waits four times longer. */
  webhookRetryDelayMs: number;
  maxDepth: number;
  /** Live actions one project may hold (ACTIONS_MAX_PER_PROJECT); a create past it is refused. */
  maxPerProject: number;
  /** The writes one chain of actions may attempt, across its runs (ACTIONS_MAX_CHAIN_WRITES). */
  maxChainWrites: number;
  executorConcurrency: number;
  /** How many events of one slow project the executor handles at once in one process (at most executorConcurrency). */
  projectConcurrency: number;
  /** How long run records are kept, in ms. */
  runRetentionMs: number;
  /** How often the run retention schedule checks for a due occurrence (ms). */
  runRetentionCheckMs: number;
  /** The executor's ack wait on the bus (ms); a delivery being handled says it is still at it every third of it. */
  executorAckWaitMs: number;
  /** How long a running run's lease lasts unrenewed (ms); a live run renews it every third of it. */
  runLeaseMs: number;
  /** How long one run may take, its blocks together (RUN_TIME_BUDGET_MS, not read from the environment). */
  runTimeBudgetMs: number;
  /** Runs by hand under way at once, per project and in the process; past either, 429 (MANUAL_RUN_LIMITS, not read from the environment). */
  manualRunLimits: ManualRunLimits;
}

/** Reads the environment once; a bad value throws a ConfigError naming the variable. */
export function loadActionsConfig(env: NodeJS.ProcessEnv = process.env): ActionsConfig {
  const parsed = parseEnv(actionsEnvSchema, env);
  const projectConcurrency = parsed.ACTIONS_PROJECT_CONCURRENCY ?? Math.max(1, Math.ceil(parsed.ACTIONS_EXECUTOR_CONCURRENCY / 4));
  if (projectConcurrency > parsed.ACTIONS_EXECUTOR_CONCURRENCY) {
    throw new ConfigError([`ACTIONS_PROJECT_CONCURRENCY: must be at most ACTIONS_EXECUTOR_CONCURRENCY (${parsed.ACTIONS_EXECUTOR_CONCURRENCY})`]);
  }
  return {
    webhookAllowedNetworks: parsed.ACTIONS_WEBHOOK_ALLOWED_NETWORKS,
    ...(parsed.ACTIONS_WEBHOOK_SECRET ? { webhookSecret: parsed.ACTIONS_WEBHOOK_SECRET } : {}),
    webhookTimeoutMs: parsed.ACTIONS_WEBHOOK_TIMEOUT_MS,
    webhookRetryDelayMs: parsed.ACTIONS_WEBHOOK_RETRY_DELAY_MS,
    maxDepth: parsed.ACTIONS_MAX_DEPTH,
    maxPerProject: parsed.ACTIONS_MAX_PER_PROJECT,
    maxChainWrites: parsed.ACTIONS_MAX_CHAIN_WRITES,
    executorConcurrency: parsed.ACTIONS_EXECUTOR_CONCURRENCY,
    projectConcurrency,
    runRetentionMs: parsed.ACTIONS_RUN_RETENTION_DAYS * 24 * 60 * 60 * 1000,
    runRetentionCheckMs: parsed.ACTIONS_RUN_RETENTION_CHECK_MS,
    executorAckWaitMs: parsed.ACTIONS_EXECUTOR_ACK_WAIT_MS,
    runLeaseMs: parsed.ACTIONS_RUN_LEASE_MS,
    runTimeBudgetMs: RUN_TIME_BUDGET_MS,
    manualRunLimits: MANUAL_RUN_LIMITS,
  };
}

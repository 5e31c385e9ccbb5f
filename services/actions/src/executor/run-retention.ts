import type { Clock, Logger } from '@platform/kit';
import { RUN_INTERRUPTED } from '../errors';
import type { RunStore } from './run-store';

/** Hourly, on one replica (kit's ClusterSchedule), a quarter past: apart from identity's purge on the hour. */
export const RUN_RETENTION_SCHEDULE = { name: 'action run retention', lockPrefix: 'actions:run-retention', cron: '15 * * * *' } as const;

export interface RunRetentionResult {
  removed: number;
  /** Runs by hand found cut off (still `running`, their lease not renewed for ACTIONS_RUN_LEASE_MS) and marked interrupted. */
  interrupted: number;
}

/**
 * Removes run records older than the retention period (ACTIONS_RUN_RETENTION_DAYS), whatever their
 * status: a run is recorded for every event and action, so without it the collection grows with
 * every write for as long as the platform runs. It also marks runs by hand that a stopped process
 * left `running` as interrupted.
 */
export class RunRetentionJob {
  constructor(private readonly deps: { runs: RunStore; clock: Clock; logger: Logger; retentionMs: number; leaseMs: number }) {}

  async run(): Promise<RunRetentionResult> {
    const now = this.deps.clock();
    const removed = await this.deps.runs.removeStartedBefore(now - this.deps.retentionMs);
    if (removed > 0) this.deps.logger.info({ removed }, 'actions: old runs removed');
    const interrupted = await this.deps.runs.interruptManualRunsLapsedBefore(now - this.deps.leaseMs, RUN_INTERRUPTED, now);
    if (interrupted > 0) this.deps.logger.info({ interrupted }, 'actions: runs by hand cut off by a stopped process marked interrupted');
    return { removed, interrupted };
  }
}

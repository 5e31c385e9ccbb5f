import type { Clock, Logger } from '@platform/kit';
import type { RunStore } from './run-store';

/** Hourly, on one replica (kit's ClusterSchedule), a quarter past: apart from identity's purge on the hour. */
export const RUN_RETENTION_SCHEDULE = { name: 'action run retention', lockPrefix: 'actions:run-retention', cron: '15 * * * *' } as const;

export interface RunRetentionResult {
  removed: number;
}

/**
 * Removes run records older than the retention period (ACTIONS_RUN_RETENTION_DAYS), whatever their
 * status: a run is recorded for every event and action, so without it the collection grows with
 * every write for as long as the platform runs.
 */
export class RunRetentionJob {
  constructor(private readonly deps: { runs: RunStore; clock: Clock; logger: Logger; retentionMs: number }) {}

  async run(): Promise<RunRetentionResult> {
    const removed = await this.deps.runs.removeStartedBefore(this.deps.clock() - this.deps.retentionMs);
    if (removed > 0) this.deps.logger.info({ removed }, 'actions: old runs removed');
    return { removed };
  }
}

import type { Clock, Logger } from '@platform/kit';
import type { TrailStore } from './trail-store';

/** Hourly, on one replica (kit's ClusterSchedule), at half past: apart from identity's purge and the actions' run retention. */
export const TRAIL_RETENTION_SCHEDULE = { name: 'audit trail retention', lockPrefix: 'audit:trail-retention', cron: '30 * * * *' } as const;

export interface TrailRetentionResult {
  removed: number;
}

/**
 * Removes trail items older than AUDIT_RETENTION_DAYS, for deployments whose rules say how long a
 * record of changes may be kept. The documents' own histories are not touched: they are the
 * documents' data, kept with them.
 */
export class TrailRetentionJob {
  constructor(private readonly deps: { trail: TrailStore; clock: Clock; logger: Logger; retentionMs: number }) {}

  async run(): Promise<TrailRetentionResult> {
    const removed = await this.deps.trail.removeBefore(this.deps.clock() - this.deps.retentionMs);
    if (removed > 0) this.deps.logger.info({ removed }, 'audit: trail items past the retention period removed');
    return { removed };
  }
}

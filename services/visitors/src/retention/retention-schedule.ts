import { randomUUID } from 'node:crypto';
import type { Logger } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import { Cron } from 'croner';
import type { RetentionResult } from './retention-job';

const LOCK_TTL_MS = 24 * 60 * 60 * 1000;

export type TickOutcome = { status: 'not-due' } | { status: 'taken-by-another-replica'; scheduledAt: number } | { status: 'ran'; scheduledAt: number; result: RetentionResult } | { status: 'lock-unavailable' };

/**
 * Runs the retention job at each occurrence of a cron pattern (croner computes the occurrences;
 * a plain interval checks whether the next one has passed, so an injected clock drives it in
 * tests). Every replica checks, but only the one that takes the occurrence's lock in the
 * key-value store runs it: once per night however many replicas there are.
 */
export class RetentionSchedule {
  private readonly cron: Cron;
  private readonly replicaId = randomUUID();
  private next: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<TickOutcome> | undefined;

  constructor(
    private readonly job: { run(): Promise<RetentionResult> },
    private readonly kv: KeyValue,
    private readonly clock: () => number,
    private readonly logger: Logger,
    options: { cron: string; timezone?: string },
  ) {
    this.cron = new Cron(options.cron, { paused: true, ...(options.timezone ? { timezone: options.timezone } : {}) });
    this.next = this.occurrenceAfter(this.clock());
  }

  /** When the job runs next (Unix ms). */
  get nextRunAt(): number {
    return this.next;
  }

  /** Runs the job if its occurrence has passed and this replica takes the lock for it. */
  async tick(): Promise<TickOutcome> {
    if (this.running) return this.running;
    this.running = this.tickOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  start(checkEveryMs = 60_000): void {
    this.timer = setInterval(() => {
      this.tick().catch((error: unknown) => this.logger.error({ err: error }, 'visitor retention run failed'));
    }, checkEveryMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private async tickOnce(): Promise<TickOutcome> {
    const now = this.clock();
    const scheduledAt = this.next;
    if (now < scheduledAt) return { status: 'not-due' };
    let taken: boolean;
    try {
      taken = await this.kv.set(`visitors:retention:${new Date(scheduledAt).toISOString()}`, this.replicaId, { onlyIfAbsent: true, ttlMs: LOCK_TTL_MS });
    } catch (error) {
      // Without the lock no replica may run; the next check tries again.
      this.logger.warn({ err: error }, 'visitor retention lock unavailable; retrying at the next check');
      return { status: 'lock-unavailable' };
    }
    this.next = this.occurrenceAfter(now);
    // One line per occurrence on every replica, so operators (and the scaling test) see who ran it.
    const occurrence = new Date(scheduledAt).toISOString();
    if (!taken) {
      this.logger.info({ occurrence }, 'visitor retention occurrence taken by another replica');
      return { status: 'taken-by-another-replica', scheduledAt };
    }
    const result = await this.job.run();
    this.logger.info({ occurrence, ...result }, 'visitor retention occurrence ran');
    return { status: 'ran', scheduledAt, result };
  }

  private occurrenceAfter(time: number): number {
    const next = this.cron.nextRun(new Date(time));
    if (!next) throw new Error('the retention cron pattern has no future occurrence');
    return next.getTime();
  }
}

import { randomUUID } from 'node:crypto';
import type { KeyValue } from '@platform/kv';
import { Cron } from 'croner';
import type { Logger } from './logger';

const LOCK_TTL_MS = 24 * 60 * 60 * 1000;

export type TickOutcome<R> = { status: 'not-due' } | { status: 'taken-by-another-replica'; scheduledAt: number } | { status: 'ran'; scheduledAt: number; result: R } | { status: 'lock-unavailable' };

export interface ClusterScheduleOptions {
  /** What runs, for the log lines (`visitor retention`). */
  name: string;
  /** The key-value prefix of the occurrences' locks (`visitors:retention`). */
  lockPrefix: string;
  cron: string;
  timezone?: string;
}

/**
 * Runs a job at each occurrence of a cron pattern (croner computes the occurrences; a plain
 * interval checks whether the next one has passed, so an injected clock drives it in tests).
 * Every replica checks, but only the one that takes the occurrence's lock in the key-value store
 * runs it: once per occurrence however many replicas there are.
 */
export class ClusterSchedule<R extends object> {
  private readonly cron: Cron;
  private readonly replicaId = randomUUID();
  private next: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<TickOutcome<R>> | undefined;

  constructor(
    private readonly job: { run(): Promise<R> },
    private readonly kv: KeyValue,
    private readonly clock: () => number,
    private readonly logger: Logger,
    private readonly options: ClusterScheduleOptions,
  ) {
    this.cron = new Cron(options.cron, { paused: true, ...(options.timezone ? { timezone: options.timezone } : {}) });
    this.next = this.occurrenceAfter(this.clock());
  }

  /** When the job runs next (Unix ms). */
  get nextRunAt(): number {
    return this.next;
  }

  /** Runs the job if its occurrence has passed and this replica takes the lock for it. */
  async tick(): Promise<TickOutcome<R>> {
    if (this.running) return this.running;
    this.running = this.tickOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  start(checkEveryMs = 60_000): void {
    this.timer = setInterval(() => {
      this.tick().catch((error: unknown) => this.logger.error({ err: error }, `${this.options.name} run failed`));
    }, checkEveryMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private async tickOnce(): Promise<TickOutcome<R>> {
    const now = this.clock();
    const scheduledAt = this.next;
    if (now < scheduledAt) return { status: 'not-due' };
    const lock = `${this.options.lockPrefix}:${new Date(scheduledAt).toISOString()}`;
    let taken: boolean;
    try {
      // A lock already this replica's was taken by an earlier check whose answer did not come back in time (the command ran).
      taken = (await this.kv.set(lock, this.replicaId, { onlyIfAbsent: true, ttlMs: LOCK_TTL_MS })) || (await this.kv.get(lock)) === this.replicaId;
    } catch (error) {
      // Without the lock no replica may run; the next check tries again.
      this.logger.warn({ err: error }, `${this.options.name} lock unavailable; retrying at the next check`);
      return { status: 'lock-unavailable' };
    }
    this.next = this.occurrenceAfter(now);
    // One line per occurrence on every replica, so operators (and the scaling test) see who ran it.
    const occurrence = new Date(scheduledAt).toISOString();
    if (!taken) {
      this.logger.info({ occurrence }, `${this.options.name} occurrence taken by another replica`);
      return { status: 'taken-by-another-replica', scheduledAt };
    }
    const result = await this.job.run();
    const fields: Record<string, unknown> = { occurrence, ...result };
    this.logger.info(fields, `${this.options.name} occurrence ran`);
    return { status: 'ran', scheduledAt, result };
  }

  private occurrenceAfter(time: number): number {
    const next = this.cron.nextRun(new Date(time));
    if (!next) throw new Error(`the ${this.options.name} cron pattern has no future occurrence`);
    return next.getTime();
  }
}

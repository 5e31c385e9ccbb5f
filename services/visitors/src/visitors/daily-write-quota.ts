import type { Logger } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import { visitorsError } from '../errors';

const DAY_MS = 24 * 60 * 60 * 1000;

/** One write counted against a kiosk binding's day; given back when the write fails. */
export interface SpentWrite {
  giveBack(): Promise<void>;
}

/**
 * How many public writes (check-ins, changes, events) one kiosk binding (a project's visitor or
 * visitor-event type) stores per UTC day. Each write is a record or change kept with its history for
 * the retention period, so the per-minute rate limits alone would let a few addresses fill the
 * store. Counted with one atomic increment in the key-value store, shared by every replica, so
 * parallel writes cannot pass it. If the store is down the write passes, as for the rate limits.
 */
export class DailyWriteQuota {
  constructor(
    private readonly kv: KeyValue,
    private readonly perKioskPerDay: number,
    private readonly clock: () => number,
    private readonly logger: Logger,
  ) {}

  /** Counts one write to `collection` today; 429 VISITORS_QUOTA_EXCEEDED past the quota. */
  async spend(collection: string): Promise<SpentWrite> {
    const now = this.clock();
    const day = Math.floor(now / DAY_MS);
    const untilEndOfDay = (day + 1) * DAY_MS - now;
    const key = `visitors:quota:${collection}:${day}`;
    let count: number;
    try {
      count = await this.kv.increment(key, { ttlMs: untilEndOfDay });
    } catch (error) {
      this.logger.warn({ err: error }, 'visitor write quota not checked: key-value store unavailable');
      return { giveBack: async () => {} };
    }
    if (count > this.perKioskPerDay) {
      throw visitorsError('VISITORS_QUOTA_EXCEEDED', { details: { retryAfterSeconds: Math.max(1, Math.ceil(untilEndOfDay / 1000)), quota: this.perKioskPerDay } });
    }
    return { giveBack: () => this.giveBack(key, untilEndOfDay) };
  }

  /** Only to a live counter: a count given back after its day ended must not create one at -1. */
  private async giveBack(key: string, ttlMs: number): Promise<void> {
    try {
      await this.kv.increment(key, { ttlMs, by: -1, onlyIfPresent: true });
    } catch (error) {
      this.logger.warn({ err: error }, 'visitor write quota not given back: key-value store unavailable');
    }
  }
}

import type { KeyValue } from '@platform/kv';
import { withSessionStore } from './session-store-availability';

export interface WindowLimit {
  key: string;
  /** Attempts allowed within one window. */
  limit: number;
}

/**
 * Counts attempts in fixed windows in the KeyValue store (shared by identity replicas). Each
 * attempt is counted by one atomic increment before any work is done, and that increment's answer
 * alone decides, so parallel attempts cannot all pass a check made before any of them counted.
 */
export class FixedWindowLimit {
  constructor(
    private readonly kv: KeyValue,
    private readonly windowMs: number,
  ) {}

  /** Counts one attempt against every limit; answers false when any of them is exceeded. */
  async take(limits: WindowLimit[]): Promise<boolean> {
    const counts = await withSessionStore(() => Promise.all(limits.map(({ key }) => this.kv.increment(key, { ttlMs: this.windowMs }))));
    return counts.every((count, index) => count <= limits[index]!.limit);
  }

  /** Gives one counted attempt back (it turned out not to count, e.g. a correct password). */
  async giveBack(key: string): Promise<void> {
    await withSessionStore(() => this.kv.increment(key, { ttlMs: this.windowMs, by: -1, onlyIfPresent: true }));
  }

  async clear(key: string): Promise<void> {
    await withSessionStore(() => this.kv.delete(key));
  }

  /** Seconds until a window that starts now has surely ended: the answer for Retry-After. */
  get retryAfterSeconds(): number {
    return Math.ceil(this.windowMs / 1000);
  }
}

import { addressLimitKey } from '@platform/kit';
import { realtimeError } from './realtime-errors';

/** How many realtime streams may be open at once in this process. */
export interface StreamLimitSettings {
  /** Per user, across its sessions and tokens (REALTIME_MAX_STREAMS_PER_USER). */
  perUser: number;
  /** Per client address, an IPv6 client by its /64 (REALTIME_MAX_STREAMS_PER_ADDRESS). */
  perAddress: number;
  /** In the whole process (REALTIME_MAX_STREAMS). */
  total: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimitSettings = { perUser: 20, perAddress: 50, total: 10_000 };

/** A slot frees only when a stream closes, which nothing predicts: the SDK polls meanwhile. */
export const STREAM_LIMIT_RETRY_AFTER_SECONDS = 30;

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 0) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}

/**
 * Counts this process's open streams, so one account or address cannot hold the process's file
 * descriptors and memory. Per process: each gateway replica counts its own streams.
 */
export class StreamLimits {
  private readonly byUser = new Map<string, number>();
  private readonly byAddress = new Map<string, number>();
  private total = 0;

  constructor(private readonly settings: StreamLimitSettings) {}

  /**
   * Counts a stream of `userId` from `address`, or throws 429 counting nothing. Answers the
   * release, which the stream must call once on whatever path it closes (later calls do nothing).
   */
  admit(userId: string, address: string): () => void {
    const addressKey = addressLimitKey(address);
    const { perUser, perAddress, total } = this.settings;
    const refuse = (code: 'REALTIME_TOO_MANY_STREAMS_PER_USER' | 'REALTIME_TOO_MANY_STREAMS_PER_ADDRESS' | 'REALTIME_TOO_MANY_STREAMS', limit: number) =>
      realtimeError(code, { details: { limit, retryAfterSeconds: STREAM_LIMIT_RETRY_AFTER_SECONDS } });
    if ((this.byUser.get(userId) ?? 0) >= perUser) throw refuse('REALTIME_TOO_MANY_STREAMS_PER_USER', perUser);
    if ((this.byAddress.get(addressKey) ?? 0) >= perAddress) throw refuse('REALTIME_TOO_MANY_STREAMS_PER_ADDRESS', perAddress);
    if (this.total >= total) throw refuse('REALTIME_TOO_MANY_STREAMS', total);
    this.byUser.set(userId, (this.byUser.get(userId) ?? 0) + 1);
    this.byAddress.set(addressKey, (this.byAddress.get(addressKey) ?? 0) + 1);
    this.total += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      decrement(this.byUser, userId);
      decrement(this.byAddress, addressKey);
      this.total -= 1;
    };
  }

  /** Open streams counted now (for tests and health). */
  get open(): number {
    return this.total;
  }
}

import { addressLimitKey, type Logger } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import { visitorRateLimited } from '@platform/telemetry';
import { visitorsError } from '../errors';

export interface RateLimits {
  /** Requests one client address may make per window, to all projects together. */
  perIp: number;
  /** Requests per window to one kiosk binding from all public callers together. */
  perKiosk: number;
  /** Requests per window one address may always make to a kiosk binding, even when its budget is spent. */
  reservedPerIp: number;
  windowMs: number;
}

/**
 * Request limits for public callers of the visitor routes (project members are not limited), in
 * fixed windows aligned to the clock and counted in the key-value store so every replica shares
 * them. One address is held to `perIp` everywhere. A kiosk binding (a project's visitor or
 * visitor-event type) has a budget of `perKiosk`; once it is spent, only addresses that sent more
 * than `reservedPerIp` to it in the window are refused. So traffic from other addresses cannot
 * lock a kiosk out: its own address keeps its reserve. If the store is down the request passes:
 * check-in must keep working, and the limit is a brake on abuse, not a security boundary. An
 * address is counted by its addressLimitKey (an IPv6 client by its /64).
 */
export class RateLimiter {
  constructor(
    private readonly kv: KeyValue,
    private readonly limits: RateLimits,
    private readonly clock: () => number,
    private readonly logger: Logger,
  ) {}

  /** The limit of one address across every project; checked before anything else is read. */
  async checkAddress(ip: string): Promise<void> {
    const window = this.window();
    const [byIp] = await this.count([`visitors:rate:ip:${addressLimitKey(ip)}:${window.index}`]);
    if (byIp !== undefined && byIp > this.limits.perIp) throw this.refusal('ip', window.endsAt);
  }

  /** The budget of one kiosk binding, shared by addresses so that none can spend another's reserve. */
  async checkKiosk(collection: string, ip: string): Promise<void> {
    const window = this.window();
    const [byKiosk, byAddress] = await this.count([`visitors:rate:kiosk:${collection}:${window.index}`, `visitors:rate:kiosk-ip:${collection}:${addressLimitKey(ip)}:${window.index}`]);
    if (byKiosk === undefined || byAddress === undefined) return;
    if (byKiosk > this.limits.perKiosk && byAddress > this.limits.reservedPerIp) throw this.refusal('kiosk', window.endsAt);
  }

  private window(): { index: number; endsAt: number } {
    const index = Math.floor(this.clock() / this.limits.windowMs);
    return { index, endsAt: (index + 1) * this.limits.windowMs };
  }

  /** Counts this request under each key; no counts when the store cannot be reached. */
  private async count(keys: string[]): Promise<Array<number | undefined>> {
    try {
      return await Promise.all(keys.map((key) => this.kv.increment(key, { ttlMs: this.limits.windowMs })));
    } catch (error) {
      this.logger.warn({ err: error }, 'visitor rate limit not checked: key-value store unavailable');
      return keys.map(() => undefined);
    }
  }

  private refusal(limit: 'ip' | 'kiosk', endsAt: number) {
    visitorRateLimited.inc({ limit });
    return visitorsError('VISITORS_RATE_LIMITED', { details: { retryAfterSeconds: Math.max(1, Math.ceil((endsAt - this.clock()) / 1000)), limit } });
  }
}

import type { Logger } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import { visitorsError } from '../errors';

/**
 * Fixed-window request limits per client address and per project, counted in the key-value store
 * so every replica shares them. If the store is down the request passes: check-in must keep
 * working, and the limit is a brake on abuse, not a security boundary.
 */
export class RateLimiter {
  constructor(
    private readonly kv: KeyValue,
    private readonly limits: { perIp: number; perProject: number; windowMs: number },
    private readonly logger: Logger,
  ) {}

  async check(ip: string, projectId: string): Promise<void> {
    let counts: [number, number];
    try {
      counts = await Promise.all([
        this.kv.increment(`visitors:rate:ip:${ip}`, { ttlMs: this.limits.windowMs }),
        this.kv.increment(`visitors:rate:project:${projectId}`, { ttlMs: this.limits.windowMs }),
      ]);
    } catch (error) {
      this.logger.warn({ err: error }, 'visitor rate limit not checked: key-value store unavailable');
      return;
    }
    const [byIp, byProject] = counts;
    if (byIp > this.limits.perIp || byProject > this.limits.perProject) {
      throw visitorsError('VISITORS_RATE_LIMITED', {
        details: { retryAfterSeconds: Math.ceil(this.limits.windowMs / 1000), limit: byIp > this.limits.perIp ? 'ip' : 'project' },
      });
    }
  }
}

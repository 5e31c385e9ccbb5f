import type { Clock } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import { aiRateLimited } from '@platform/telemetry';
import { dataError } from '../errors';

const HOUR_MS = 60 * 60 * 1000;

/**
 * How many provider calls each user, and each project's members together, may cause an hour
 * (AI_CALLS_PER_USER_PER_HOUR, AI_CALLS_PER_PROJECT_PER_HOUR): every call costs the operator, and
 * a member or a script could otherwise run up the provider's bill without end. Counted in the
 * KeyValue store, so data replicas share the budgets, in windows aligned to the clock hour (the
 * refusal's Retry-After is exact). A call is counted before it is made, whatever the provider
 * then answers; a refusal by the user's budget leaves the project's untouched.
 */
export class AiUsageLimits {
  constructor(
    private readonly kv: KeyValue,
    private readonly clock: Clock,
    private readonly limits: { perUser: number; perProject: number },
  ) {}

  /** Counts one provider call of `userId` (in `projectId`, when the call belongs to one); 429 past a budget. */
  async take(userId: string, projectId: string | undefined): Promise<void> {
    const now = this.clock();
    const window = Math.floor(now / HOUR_MS);
    const retryAfterSeconds = Math.ceil((HOUR_MS - (now % HOUR_MS)) / 1000);
    if ((await this.kv.increment(`ai-calls:user:${userId}:${window}`, { ttlMs: HOUR_MS })) > this.limits.perUser) {
      aiRateLimited.inc({ limit: 'user' });
      throw dataError('AI_RATE_LIMITED', { message: `Too many AI requests: at most ${this.limits.perUser} an hour for each user. Try again in ${minutes(retryAfterSeconds)}.`, details: { limit: 'user', retryAfterSeconds } });
    }
    if (projectId === undefined) return;
    if ((await this.kv.increment(`ai-calls:project:${projectId}:${window}`, { ttlMs: HOUR_MS })) > this.limits.perProject) {
      aiRateLimited.inc({ limit: 'project' });
      throw dataError('AI_RATE_LIMITED', { message: `Too many AI requests in this project: at most ${this.limits.perProject} an hour for all its members. Try again in ${minutes(retryAfterSeconds)}.`, details: { limit: 'project', retryAfterSeconds } });
    }
  }
}

function minutes(seconds: number): string {
  const count = Math.ceil(seconds / 60);
  return count === 1 ? '1 minute' : `${count} minutes`;
}

import { AppError, type Clock } from '@platform/kit';
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
 * then answers; a refused one is given back, so the counts are the calls made.
 */
export interface AiUsage {
  /** When this hour's window ends and the budgets start again (Unix ms). */
  windowEndsAt: number;
  you: { calls: number; limit: number };
  project: { calls: number; limit: number };
}

export class AiUsageLimits {
  constructor(
    private readonly kv: KeyValue,
    private readonly clock: Clock,
    private readonly limits: { perUser: number; perProject: number },
  ) {}

  /**
   * Counts one provider call of `userId` (in `projectId`, when the call belongs to one); 429 past a
   * budget, counting nothing. A store that cannot count refuses the call (503): an uncounted call
   * is one nobody pays attention to.
   */
  async take(userId: string, projectId: string | undefined): Promise<void> {
    await counted(() => this.count(userId, projectId));
  }

  private async count(userId: string, projectId: string | undefined): Promise<void> {
    const now = this.clock();
    const window = Math.floor(now / HOUR_MS);
    const retryAfterSeconds = Math.ceil((HOUR_MS - (now % HOUR_MS)) / 1000);
    const user = userKey(userId, window);
    if ((await this.kv.increment(user, { ttlMs: HOUR_MS })) > this.limits.perUser) {
      await this.giveBack(user);
      aiRateLimited.inc({ limit: 'user' });
      throw dataError('AI_RATE_LIMITED', { message: `Too many AI requests: at most ${this.limits.perUser} an hour for each user. Try again in ${minutes(retryAfterSeconds)}.`, details: { limit: 'user', retryAfterSeconds } });
    }
    if (projectId === undefined) return;
    const project = projectKey(projectId, window);
    if ((await this.kv.increment(project, { ttlMs: HOUR_MS })) > this.limits.perProject) {
      await Promise.all([this.giveBack(user), this.giveBack(project)]);
      aiRateLimited.inc({ limit: 'project' });
      throw dataError('AI_RATE_LIMITED', { message: `Too many AI requests in this project: at most ${this.limits.perProject} an hour for all its members. Try again in ${minutes(retryAfterSeconds)}.`, details: { limit: 'project', retryAfterSeconds } });
    }
  }

  /** A refused call is not a call: the counts say how many the provider was asked. */
  private async giveBack(key: string): Promise<void> {
    await this.kv.increment(key, { ttlMs: HOUR_MS, by: -1, onlyIfPresent: true });
  }

  /** This hour's calls against both budgets: how many times the provider was asked. */
  async usage(userId: string, projectId: string): Promise<AiUsage> {
    return counted(() => this.read(userId, projectId));
  }

  private async read(userId: string, projectId: string): Promise<AiUsage> {
    const now = this.clock();
    const window = Math.floor(now / HOUR_MS);
    // A step of 0 reads a counter in one atomic call whatever the store (and opens no longer window).
    const [you, project] = await Promise.all([this.kv.increment(userKey(userId, window), { ttlMs: HOUR_MS, by: 0 }), this.kv.increment(projectKey(projectId, window), { ttlMs: HOUR_MS, by: 0 })]);
    return { windowEndsAt: (window + 1) * HOUR_MS, you: { calls: you, limit: this.limits.perUser }, project: { calls: project, limit: this.limits.perProject } };
  }
}

/** Runs `work` on the store; a store failure becomes 503 `AI_BUDGETS_UNAVAILABLE` (a refusal of ours passes as it is). */
async function counted<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw dataError('AI_BUDGETS_UNAVAILABLE');
  }
}

const userKey = (userId: string, window: number) => `ai-calls:user:${userId}:${window}`;
const projectKey = (projectId: string, window: number) => `ai-calls:project:${projectId}:${window}`;

function minutes(seconds: number): string {
  const count = Math.ceil(seconds / 60);
  return count === 1 ? '1 minute' : `${count} minutes`;
}

import { actionsError } from '../errors';

/** How many runs by hand may be under way at once in one process. */
export interface ManualRunLimits {
  perProject: number;
  /** In the whole process. */
  total: number;
}

/**
 * A run by hand is short unless a webhook holds it (its owner is trying a workflow), so a few at
 * once per project are plenty; the process's cap keeps many projects together below the
 * executor's own concurrency for triggered runs (64).
 */
export const MANUAL_RUN_LIMITS: ManualRunLimits = { perProject: 4, total: 32 };

/** Most runs by hand end within seconds; one a webhook holds ends within its timeouts and retries. */
export const MANUAL_RUN_RETRY_AFTER_SECONDS = 5;

/**
 * Counts the runs by hand under way in this process, so that POSTs in parallel cannot start runs
 * without bound beside the executor's limits (200 at once held 200 webhook calls open). Per
 * process: each replica counts its own.
 */
export class ManualRunSlots {
  private readonly byProject = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: ManualRunLimits) {}

  /** Takes a slot for a run by hand in `projectId`, or throws 429 taking nothing. Answers the release, which does something only once. */
  take(projectId: string): () => void {
    const inProject = this.byProject.get(projectId) ?? 0;
    if (inProject >= this.limits.perProject) throw this.refusal('ACTIONS_TOO_MANY_MANUAL_RUNS_PER_PROJECT', this.limits.perProject);
    if (this.total >= this.limits.total) throw this.refusal('ACTIONS_TOO_MANY_MANUAL_RUNS', this.limits.total);
    this.byProject.set(projectId, inProject + 1);
    this.total += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.byProject.get(projectId) ?? 1) - 1;
      if (left > 0) this.byProject.set(projectId, left);
      else this.byProject.delete(projectId);
      this.total -= 1;
    };
  }

  private refusal(code: 'ACTIONS_TOO_MANY_MANUAL_RUNS_PER_PROJECT' | 'ACTIONS_TOO_MANY_MANUAL_RUNS', limit: number) {
    return actionsError(code, { details: { limit, retryAfterSeconds: MANUAL_RUN_RETRY_AFTER_SECONDS } });
  }
}

/** An event of a project being handled, from tryEnter to leave. */
export interface ShareTicket {
  projectId: string;
  startedAt: number;
}

export interface ProjectShareOptions {
  /** Slots a slow project may hold at once. */
  perProject: number;
  clock?: () => number;
  /** An event handled for longer than this makes its project slow. */
  slowMs?: number;
  /** How long a project stays slow after its last slow event. */
  rememberMs?: number;
}

/**
 * Which document events the executor takes now, so one project cannot hold back every other's: a
 * project whose actions wait on a slow or dead webhook (up to a timeout and two retries per event)
 * would otherwise fill every slot. A project is held to `perProject` slots while it is slow (one of
 * its events is taking, or took within the last minute, more than a second); a fast one may use
 * every free slot, so one busy project on its own keeps up with its writes as before.
 */
export class ProjectShare {
  /** Start times of the events being handled, by project. */
  private readonly running = new Map<string, number[]>();
  /** Until when each project counts as slow. */
  private readonly slowUntil = new Map<string, number>();
  private readonly clock: () => number;
  private readonly slowMs: number;
  private readonly rememberMs: number;

  constructor(private readonly options: ProjectShareOptions) {
    this.clock = options.clock ?? Date.now;
    this.slowMs = options.slowMs ?? 1_000;
    this.rememberMs = options.rememberMs ?? 60_000;
  }

  /** A slot for an event of `projectId`, or undefined when the project is slow and has its share. */
  tryEnter(projectId: string): ShareTicket | undefined {
    const now = this.clock();
    const started = this.running.get(projectId) ?? [];
    if (started.length >= this.options.perProject && this.isSlow(projectId, started, now)) return undefined;
    started.push(now);
    this.running.set(projectId, started);
    return { projectId, startedAt: now };
  }

  leave(ticket: ShareTicket): void {
    const now = this.clock();
    const started = this.running.get(ticket.projectId) ?? [];
    started.splice(started.indexOf(ticket.startedAt), 1);
    if (started.length === 0) this.running.delete(ticket.projectId);
    if (now - ticket.startedAt > this.slowMs) this.slowUntil.set(ticket.projectId, now + this.rememberMs);
  }

  private isSlow(projectId: string, started: number[], now: number): boolean {
    const until = this.slowUntil.get(projectId);
    if (until !== undefined && until > now) return true;
    if (until !== undefined) this.slowUntil.delete(projectId);
    return started.some((startedAt) => now - startedAt > this.slowMs);
  }
}

/** What one HTTP request ended with: a status, or no answer at all. */
export type Outcome = number | 'timeout' | 'network';

export interface Phase {
  name: string;
  startedAt: number;
  endedAt: number;
  /** Requests by outcome, counted in the phase in which they ended (when the fault hit them). */
  outcomes: Map<Outcome, number>;
  /** Writes the load generator sent again after a failed attempt. */
  retries: number;
  /** Requests that answered a 5xx other than 503, by method, route and status. */
  serverErrors: Map<string, number>;
}

/**
 * The run's timeline: one phase for the baseline and one per fault (from the kill until the
 * system has settled again). Every request through the gateway is counted in the phase in which
 * its answer (or its failure) came.
 */
export class Traffic {
  readonly phases: Phase[] = [];

  constructor(firstPhase: string) {
    this.begin(firstPhase);
  }

  get current(): Phase {
    return this.phases[this.phases.length - 1] as Phase;
  }

  begin(name: string): void {
    const now = Date.now();
    if (this.phases.length) this.current.endedAt = now;
    this.phases.push({ name, startedAt: now, endedAt: Number.POSITIVE_INFINITY, outcomes: new Map(), retries: 0, serverErrors: new Map() });
  }

  end(): void {
    this.current.endedAt = Date.now();
  }

  /** The phase a moment belongs to (the last one for anything after the run). */
  phaseAt(time: number): Phase {
    return this.phases.find((phase) => time >= phase.startedAt && time < phase.endedAt) ?? this.current;
  }

  record(outcome: Outcome, method: string, url: string): void {
    const phase = this.current;
    phase.outcomes.set(outcome, (phase.outcomes.get(outcome) ?? 0) + 1);
    if (typeof outcome === 'number' && outcome >= 500 && outcome !== 503) {
      // Ids and query strings left out, so one line stands for every request of a route.
      const route = `${method} ${url.replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, '').replace(/\/projects\/[^/]+/, '/projects/{id}').replace(/\/data\/[^/]+$/, '/data/{id}')} → ${outcome}`;
      phase.serverErrors.set(route, (phase.serverErrors.get(route) ?? 0) + 1);
    }
  }

  /** A fetch that counts every answer, for the sync clients. */
  countingFetch(): typeof fetch {
    return async (input, init) => {
      const method = init?.method ?? 'GET';
      const url = String(input instanceof Request ? input.url : input);
      try {
        const response = await fetch(input, init);
        this.record(response.status, method, url);
        return response;
      } catch (error) {
        this.record((error as Error).name === 'TimeoutError' ? 'timeout' : 'network', method, url);
        throw error;
      }
    };
  }
}

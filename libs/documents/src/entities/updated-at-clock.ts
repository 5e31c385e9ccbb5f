/**
 * Hands out `updatedAt` values and knows up to which value a pull may safely read.
 *
 * The pull cursor is the largest `updatedAt` a client has seen, so a write must never become
 * visible with an `updatedAt` at or below a value some pull already returned. Two things could
 * break that: a write stamped in the same millisecond as a pull that already returned that
 * millisecond (prevented here: pulls read only below the current millisecond, and stamps never go
 * below the clock), and a write stamped early but committed late (a concurrent pull would return
 * the later-stamped, earlier-committed entity and move the client past it). So every stamp stays
 * "in flight" until its write is stored, and pulls read only up to just below the oldest
 * in-flight stamp. Writes in one millisecond share its value (the cursor breaks ties by id):
 * values that had to be unique ran ahead of the clock by a millisecond for every write over
 * 1,000 a second, and a pull then missed writes until the clock caught up. Across processes
 * sharing one MongoDB, `settleMs` adds a margin for the other processes'
 * in-flight writes (and clock skew); writes that take longer than half of it are re-stamped by the
 * writer so the margin holds. The embedded store has one process, so its margin is 0.
 */
export class UpdatedAtClock {
  private last = 0;
  private readonly inFlight = new Map<number, number>();

  constructor(
    private readonly clock: () => number,
    readonly settleMs = 0,
  ) {}

  now(): number {
    return this.clock();
  }

  /**
   * A fresh stamp, at least `atLeast`, in flight until `end()` is called (after the write was
   * stored or failed).
   */
  begin(atLeast = 0): { at: number; end(): void } {
    // Never backwards, even when the system clock steps back.
    this.last = Math.max(this.clock(), this.last, atLeast);
    const at = this.last;
    this.inFlight.set(at, (this.inFlight.get(at) ?? 0) + 1);
    return new InFlightStamp(at, this.inFlight);
  }

  /** The largest `updatedAt` a pull may return now. */
  stableUntil(): number {
    let oldest = Number.POSITIVE_INFINITY;
    for (const at of this.inFlight.keys()) if (at < oldest) oldest = at;
    return Math.min(oldest - 1, this.clock() - this.settleMs - 1);
  }
}

/**
 * A stamp counted in `inFlight` until `end()`. A class, not an object literal with an arrow: one
 * is made per write, and tsx (keepNames) gives each such named closure an Object.defineProperty.
 */
class InFlightStamp {
  constructor(
    readonly at: number,
    private readonly inFlight: Map<number, number>,
  ) {}

  end(): void {
    const count = (this.inFlight.get(this.at) ?? 1) - 1;
    if (count <= 0) this.inFlight.delete(this.at);
    else this.inFlight.set(this.at, count);
  }
}

/** The wait after a compaction that failed; it doubles with each failure in a row, up to COMPACT_RETRY_MAX_MS. */
export const COMPACT_RETRY_FIRST_MS = 30_000;
const COMPACT_RETRY_MAX_MS = 30 * 60_000;

/**
 * When a compaction that failed before its swap (no room for the copy, an I/O error) may run
 * again: not at the very next write, which on a disk too full for a copy of the log would start a
 * doomed rewrite of the whole log after every write, but once a wait has passed that doubles with
 * each failure in a row.
 */
export class CompactionRetry {
  private failuresInARow = 0;
  private notBefore = 0;

  constructor(
    private readonly firstWaitMs: number,
    private readonly now: () => number,
  ) {}

  /** Whether a compaction may start now. */
  get allowed(): boolean {
    return this.now() >= this.notBefore;
  }

  /** Records a failure; answers how long the next compaction has to wait. */
  failed(): number {
    const wait = Math.min(this.firstWaitMs * 2 ** this.failuresInARow, COMPACT_RETRY_MAX_MS);
    this.failuresInARow += 1;
    this.notBefore = this.now() + wait;
    return wait;
  }

  succeeded(): void {
    this.failuresInARow = 0;
    this.notBefore = 0;
  }
}

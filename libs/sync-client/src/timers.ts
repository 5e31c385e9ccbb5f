/** The clock and timers the client uses; tests inject fast or manual ones. */
export interface Timers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * Makes a system timer keep a Node process alive (they are created unref'd, so background work
 * never holds a script open); a no-op elsewhere. Used for what a caller waits on: `awaitInSync`'s
 * settle window and backoff, and (with `keepProcessAlive`) retries of queued work.
 */
export function holdProcess(handle: unknown): void {
  (handle as { ref?: () => void } | undefined)?.ref?.();
}

export const systemTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface BackoffOptions {
  /** First retry delay (default 1 s). */
  initialMs?: number;
  /** Longest delay (default 30 s). */
  maxMs?: number;
  /** Growth per failure (default 2). */
  factor?: number;
  /** 0..1 source for jitter (default Math.random); the delay is between half and all of the step. */
  random?: () => number;
}

/** Exponential backoff with jitter: `initial * factor^n`, capped, reset by a success. */
export class Backoff {
  private failures = 0;

  constructor(private readonly options: BackoffOptions = {}) {}

  /** The next delay; never under `atLeastMs` (a server's `Retry-After`, when it gave one). */
  next(atLeastMs = 0): number {
    const initial = this.options.initialMs ?? 1_000;
    const step = Math.min(this.options.maxMs ?? 30_000, initial * (this.options.factor ?? 2) ** this.failures);
    this.failures += 1;
    return Math.max(atLeastMs, Math.round(step / 2 + (step / 2) * (this.options.random ?? Math.random)()));
  }

  reset(): void {
    this.failures = 0;
  }
}

/** Waits after the n-th crash in a row: 0.5 s, 1 s, 2 s, ... at most 30 s (compose's `restart: unless-stopped`, roughly). */
export function restartDelayMs(consecutiveCrashes: number, initialMs = 500, maxMs = 30_000): number {
  return Math.min(maxMs, initialMs * 2 ** Math.max(0, consecutiveCrashes - 1));
}

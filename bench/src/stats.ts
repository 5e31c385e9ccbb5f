/** Nearest-rank percentile (`p` from 0 to 100) of the values; they are not reordered. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/** The middle value (of an odd count; the lower middle of an even one). */
export function median(values: number[]): number {
  return percentile(values, 50);
}

/** The arithmetic mean of the values. */
export function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

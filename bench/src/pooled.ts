import type { ComparedLoad, LoadResult } from './load';
import { mean } from './stats';

/**
 * Several processes of one kind loaded in the same rounds (compareLoads), pooled. Processes of the
 * same code started together can differ by 10 to 20% for their whole lives (BENCHMARKS.md, gateway
 * overhead), so a suite whose target is a ratio compares the means of a few processes each.
 */

/** `count` target names for one kind of process: `gateway1`, `gateway2`, ... */
export function processNames(kind: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `${kind}${index + 1}`);
}

/** Each round's mean throughput over `names`. */
export function roundMeans(results: Record<string, ComparedLoad>, names: string[]): number[] {
  return results[names[0]!]!.roundsPerSecond.map((_, round) => mean(names.map((name) => results[name]!.roundsPerSecond[round]!)));
}

/** One row standing for the processes `names`: the mean of their medians (throughput, p50, p99), their errors summed. */
export function pooled(results: Record<string, ComparedLoad>, names: string[]): LoadResult {
  const of = (figure: (result: LoadResult) => number) => mean(names.map((name) => figure(results[name]!)));
  return {
    requestsPerSecond: of((result) => result.requestsPerSecond),
    p50Ms: of((result) => result.p50Ms),
    p99Ms: of((result) => result.p99Ms),
    non2xx: names.reduce((sum, name) => sum + results[name]!.non2xx, 0),
    errors: names.reduce((sum, name) => sum + results[name]!.errors, 0),
  };
}

import autocannon from 'autocannon';
import { median } from './stats';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** compareLoads' answer for one target: the medians, and each round's throughput in round order. */
export interface ComparedLoad extends LoadResult {
  roundsPerSecond: number[];
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  durationSeconds?: number;
  /** Per-connection request builders (autocannon's `requests`), for loads that carry state such as revisions. */
  requests?: autocannon.Request[];
}

/** One autocannon run. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? 32,
    duration: options.durationSeconds ?? 5,
    ...(options.requests ? { requests: options.requests } : {}),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * Runs each target `rounds` times, interleaved so drift on a shared machine hits all alike, each
 * round starting one target later (A B C, B C A, C A B, ...) so no target always follows the same
 * one (and the work that one leaves behind), after one short warm-up each; answers the median of
 * every figure per target.
 */
export async function compareLoads(targets: Record<string, LoadOptions>, rounds = 3): Promise<Record<string, ComparedLoad>> {
  const names = Object.keys(targets);
  for (const name of names) await runLoad({ ...targets[name]!, durationSeconds: 1 });
  const runs: Record<string, LoadResult[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (let step = 0; step < names.length; step += 1) {
      const name = names[(round + step) % names.length]!;
      runs[name]!.push(await runLoad(targets[name]!));
    }
  }
  return Object.fromEntries(
    names.map((name) => {
      const results = runs[name]!;
      return [
        name,
        {
          requestsPerSecond: median(results.map((r) => r.requestsPerSecond)),
          p50Ms: median(results.map((r) => r.p50Ms)),
          p99Ms: median(results.map((r) => r.p99Ms)),
          non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
          errors: results.reduce((sum, r) => sum + r.errors, 0),
          roundsPerSecond: results.map((r) => r.requestsPerSecond),
        },
      ];
    }),
  );
}

/**
 * The median of `a`'s figure over `b`'s, round by round (`a[i] / b[i]`). The two ran seconds apart
 * in each round, so a drift of the machine's speed that spans rounds (seen on a shared host: the
 * same loop 624 to 951 ms) cancels in each ratio, where the ratio of the two medians mixes rounds.
 */
export function pairedRatio(a: number[], b: number[]): number {
  return median(a.map((value, round) => value / (b[round] as number)));
}

import { loadavg } from 'node:os';

/**
 * What a suite's figures were measured under, for the line under its section: the 1-min load
 * average of the shared machine, sampled through the suite, and the server that stood in for
 * MongoDB in its microservice runs.
 */
const LOAD_SAMPLE_INTERVAL_MS = 2_000;

let loadSamples: number[] = [];
let sampler: NodeJS.Timeout | undefined;
const mongoStandIns = new Set<string>();

/** Starts a suite's record afresh (call before each suite). */
export function startRunConditions(): void {
  clearInterval(sampler);
  loadSamples = [loadavg()[0]!];
  mongoStandIns.clear();
  sampler = setInterval(() => loadSamples.push(loadavg()[0]!), LOAD_SAMPLE_INTERVAL_MS);
  sampler.unref();
}

export function noteMongoStandIn(description: string): void {
  mongoStandIns.add(description);
}

/** "1-min load average ..." and, after a microservice run, "MongoDB stand-in: ..."; sentences for the section's last line. */
export function runConditionsText(): string {
  const samples = [...loadSamples, loadavg()[0]!].sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)]!;
  const load = `1-min load average during the run ${samples[0]!.toFixed(1)}–${samples.at(-1)!.toFixed(1)} (median ${median.toFixed(1)})`;
  return mongoStandIns.size ? `${load}. MongoDB stand-in: ${[...mongoStandIns].join('; ')}` : load;
}

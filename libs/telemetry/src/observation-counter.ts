import type { KeyedHistogram } from './keyed-histogram';

/**
 * A counter of a KeyedHistogram's observations by the same labels (`platform_http_requests_total`
 * beside `platform_http_request_duration_seconds`): read from the histogram's counts when scraped,
 * so counting costs a request nothing more. It hands the registry what a prom-client Counter
 * incremented once per observation would (keyed-histogram.test.ts compares them); register
 * it with `registerMetric`. A registry reset resets the histogram, which this counter follows.
 */
export class ObservationCounter {
  readonly type = 'counter';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly histogram: KeyedHistogram;

  constructor(config: { name: string; help: string; histogram: KeyedHistogram }) {
    this.name = config.name;
    this.help = config.help;
    this.histogram = config.histogram;
  }

  /** Nothing of its own to clear: the counts are the histogram's. */
  reset(): void {}

  async get(): Promise<{ name: string; help: string; type: 'counter'; values: Array<{ value: number; labels: Record<string, string> }>; aggregator: 'sum' }> {
    const values = [...this.histogram.series()].map((series) => ({ value: series.count, labels: series.labels }));
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

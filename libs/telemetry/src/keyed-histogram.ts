/** One series' observations: the count in each bucket (not cumulative; the last holds values above every bound), their sum and count. */
export interface SeriesCounts {
  labels: Record<string, string>;
  buckets: Float64Array;
  sum: number;
  count: number;
}

interface ExportedValue {
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
  exemplar: null | undefined;
}

export interface KeyedHistogramConfig {
  name: string;
  help: string;
  /** The labels, in the order `observe` is given their values. */
  labelNames: readonly string[];
  buckets: readonly number[];
}

/**
 * A histogram for the hottest timings (every HTTP request, every store operation): an
 * observation finds its series by the label values joined into one key and increments an array,
 * where prom-client's `observe` validates the labels, sorts their names and hashes them each time
 * (with its counter beside it 0.57 us a request, against 0.10 here; docs/observability.md). It
 * hands the registry what a prom-client Histogram of the same name, help, labels and buckets
 * would, in the same shape, so the scrape output is identical (keyed-histogram.test.ts compares
 * them); register it with `registerMetric`.
 */
export class KeyedHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly labelNames: readonly string[];
  private readonly bounds: readonly number[];
  private bySeries = new Map<string, SeriesCounts>();

  constructor(config: KeyedHistogramConfig) {
    this.name = config.name;
    this.help = config.help;
    this.labelNames = config.labelNames;
    this.bounds = config.buckets;
  }

  /** Records `seconds` under the label values, given in the order of `labelNames`. */
  observe(labelValues: readonly string[], seconds: number): void {
    // A NUL cannot be in a route template, method, status or operation name: keys cannot collide.
    const key = labelValues.length === 1 ? (labelValues[0] as string) : labelValues.join('\u0000');
    let counts = this.bySeries.get(key);
    if (!counts) {
      counts = { labels: Object.fromEntries(this.labelNames.map((name, index) => [name, labelValues[index] as string])), buckets: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
      this.bySeries.set(key, counts);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > (this.bounds[bucket] as number)) bucket += 1;
    (counts.buckets[bucket] as number) += 1;
    counts.sum += seconds;
    counts.count += 1;
  }

  /** Every series observed since the start or the last reset, in the order first seen. */
  series(): Iterable<SeriesCounts> {
    return this.bySeries.values();
  }

  reset(): void {
    this.bySeries = new Map();
  }

  /** What the registry formats into the text exposition (the series' labels as shared labels, as prom-client has them). */
  async getForPromString(): Promise<{ name: string; help: string; type: 'histogram'; values: ExportedValue[]; aggregator: 'sum' }> {
    const values: ExportedValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const counts of this.bySeries.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, bucket) => {
        cumulative += counts.buckets[bucket] as number;
        values.push({ labels: { le: bound }, sharedLabels: counts.labels, value: cumulative, metricName: bucketName, exemplar: null });
      });
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: counts.labels, value: counts.count, metricName: bucketName, exemplar: null },
        { labels: {}, sharedLabels: counts.labels, value: counts.sum, metricName: `${this.name}_sum`, exemplar: undefined },
        { labels: {}, sharedLabels: counts.labels, value: counts.count, metricName: `${this.name}_count`, exemplar: undefined },
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The values with the series' labels among each one's labels (the registry's JSON). */
  async get(): Promise<{ name: string; help: string; type: 'histogram'; values: Array<Omit<ExportedValue, 'sharedLabels'>>; aggregator: 'sum' }> {
    const exported = await this.getForPromString();
    return { ...exported, values: exported.values.map(({ sharedLabels, labels, ...value }) => ({ ...value, labels: { ...labels, ...sharedLabels } })) };
  }
}

/** One operation's observations: the count in each bucket (not cumulative; the last holds values above every bound), their sum and count. */
interface OperationCounts {
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

export interface OperationHistogramConfig {
  name: string;
  help: string;
  /** The one label, whose value names the operation. */
  labelName: string;
  buckets: readonly number[];
}

/**
 * A histogram with one label, for the hottest timings (every store operation): an observation is
 * an array increment, where prom-client's `observe` validates and hashes the labels each time.
 * It hands the registry what a prom-client Histogram of the same name, help, label and buckets
 * would, in the same shape, so the scrape output is identical (operation-histogram.test.ts
 * compares them); register it with `registerMetric`.
 */
export class OperationHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly labelName: string;
  private readonly bounds: readonly number[];
  private byOperation = new Map<string, OperationCounts>();

  constructor(config: OperationHistogramConfig) {
    this.name = config.name;
    this.help = config.help;
    this.labelName = config.labelName;
    this.bounds = config.buckets;
  }

  observe(operation: string, seconds: number): void {
    let counts = this.byOperation.get(operation);
    if (!counts) {
      counts = { labels: { [this.labelName]: operation }, buckets: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
      this.byOperation.set(operation, counts);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > (this.bounds[bucket] as number)) bucket += 1;
    (counts.buckets[bucket] as number) += 1;
    counts.sum += seconds;
    counts.count += 1;
  }

  reset(): void {
    this.byOperation = new Map();
  }

  /** What the registry formats into the text exposition (the operation as a shared label, as prom-client has it). */
  async getForPromString(): Promise<{ name: string; help: string; type: 'histogram'; values: ExportedValue[]; aggregator: 'sum' }> {
    const values: ExportedValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const counts of this.byOperation.values()) {
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

  /** The values with the operation among each one's labels (the registry's JSON). */
  async get(): Promise<{ name: string; help: string; type: 'histogram'; values: Array<Omit<ExportedValue, 'sharedLabels'>>; aggregator: 'sum' }> {
    const exported = await this.getForPromString();
    return { ...exported, values: exported.values.map(({ sharedLabels, labels, ...value }) => ({ ...value, labels: { ...labels, ...sharedLabels } })) };
  }
}

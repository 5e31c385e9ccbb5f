import { Histogram, Registry, type RegistryContentType } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { OperationHistogram } from './operation-histogram';

const config = { name: 'test_operation_duration_seconds', help: 'Time of one operation, by operation', buckets: [0.0005, 0.001, 0.005, 0.01, 5] };

/** The same observations into an OperationHistogram and a prom-client Histogram, each in its own registry of `contentType`. */
function both(contentType: RegistryContentType) {
  const ours = new Registry<RegistryContentType>();
  const reference = new Registry<RegistryContentType>();
  ours.setContentType(contentType);
  reference.setContentType(contentType);
  const histogram = new OperationHistogram({ ...config, labelName: 'operation' });
  ours.registerMetric(histogram as unknown as Histogram);
  const prom = new Histogram({ ...config, labelNames: ['operation'] as const, registers: [reference] });
  return {
    ours,
    reference,
    histogram,
    observe(operation: string, seconds: number) {
      histogram.observe(operation, seconds);
      prom.observe({ operation }, seconds);
    },
  };
}

const observations: Array<[string, number]> = [
  ['findById', 0.0001],
  ['updateOne', 0.0005],
  ['findById', 0.0005000001],
  ['insertMany', 0.003],
  ['findById', 0.001],
  ['updateOne', 7.5],
  ['updateOne', 5],
  ['find', 0.02],
  ['findById', 0],
];

describe('OperationHistogram', () => {
  for (const contentType of [Registry.PROMETHEUS_CONTENT_TYPE, Registry.OPENMETRICS_CONTENT_TYPE] as RegistryContentType[]) {
    it(`scrapes exactly as prom-client's Histogram with the same name, help, label and buckets (${contentType.split(';')[0]})`, async () => {
      const { ours, reference, observe } = both(contentType);
      expect(await ours.metrics()).toBe(await reference.metrics());
      for (const [operation, seconds] of observations) observe(operation, seconds);
      const scraped = await ours.metrics();
      expect(scraped).toBe(await reference.metrics());
      // Bounds are inclusive, values above the last bound count only in +Inf, sum and count.
      expect(scraped).toContain('test_operation_duration_seconds_bucket{le="0.0005",operation="findById"} 2');
      expect(scraped).toContain('test_operation_duration_seconds_bucket{le="5",operation="updateOne"} 2');
      expect(scraped).toContain('test_operation_duration_seconds_bucket{le="+Inf",operation="updateOne"} 3');
      expect(await ours.getMetricsAsJSON()).toEqual(await reference.getMetricsAsJSON());
    });
  }

  it('starts from nothing again on reset, as the registry resets its metrics', async () => {
    const { ours, reference, observe } = both(Registry.PROMETHEUS_CONTENT_TYPE);
    for (const [operation, seconds] of observations) observe(operation, seconds);
    ours.resetMetrics();
    reference.resetMetrics();
    expect(await ours.metrics()).toBe(await reference.metrics());
    observe('count', 0.002);
    expect(await ours.metrics()).toBe(await reference.metrics());
    expect(await ours.metrics()).toContain('test_operation_duration_seconds_count{operation="count"} 1');
  });
});

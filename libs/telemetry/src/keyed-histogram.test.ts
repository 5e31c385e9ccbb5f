import { Counter, Histogram, Registry, type RegistryContentType } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { KeyedHistogram } from './keyed-histogram';
import { ObservationCounter } from './observation-counter';

const buckets = [0.0005, 0.001, 0.005, 0.01, 5];
const histogramConfig = { name: 'test_request_duration_seconds', help: 'Time of one request, by route, method and status', buckets };
const counterConfig = { name: 'test_requests_total', help: 'Requests, by route, method and status' };
const labelNames = ['route', 'method', 'status'] as const;

/** The same observations into a KeyedHistogram with its ObservationCounter, and into a prom-client Histogram and Counter, each pair in its own registry of `contentType`. */
function both(contentType: RegistryContentType) {
  const ours = new Registry<RegistryContentType>();
  const reference = new Registry<RegistryContentType>();
  ours.setContentType(contentType);
  reference.setContentType(contentType);
  const histogram = new KeyedHistogram({ ...histogramConfig, labelNames });
  ours.registerMetric(new ObservationCounter({ ...counterConfig, histogram }) as unknown as Counter);
  ours.registerMetric(histogram as unknown as Histogram);
  const promCounter = new Counter({ ...counterConfig, labelNames, registers: [reference] });
  const promHistogram = new Histogram({ ...histogramConfig, labelNames, registers: [reference] });
  return {
    ours,
    reference,
    observe(route: string, method: string, status: string, seconds: number) {
      histogram.observe([route, method, status], seconds);
      promCounter.inc({ route, method, status });
      promHistogram.observe({ route, method, status }, seconds);
    },
  };
}

const observations: Array<[string, string, string, number]> = [
  ['/api/items/:id', 'GET', '200', 0.0001],
  ['/api/items/:id', 'PATCH', '200', 0.0005],
  ['/api/items/:id', 'GET', '200', 0.0005000001],
  ['/api/items', 'POST', '201', 0.003],
  ['/api/items/:id', 'GET', '404', 0.001],
  ['/api/items/:id', 'PATCH', '200', 7.5],
  ['/api/items/:id', 'PATCH', '200', 5],
  ['/api/items', 'POST', '400', 0.02],
  ['/api/items/:id', 'GET', '200', 0],
];

describe('KeyedHistogram and its ObservationCounter', () => {
  for (const contentType of [Registry.PROMETHEUS_CONTENT_TYPE, Registry.OPENMETRICS_CONTENT_TYPE] as RegistryContentType[]) {
    it(`scrape exactly as prom-client's Histogram and Counter with the same names, help, labels and buckets (${contentType.split(';')[0]})`, async () => {
      const { ours, reference, observe } = both(contentType);
      expect(await ours.metrics()).toBe(await reference.metrics());
      for (const observation of observations) observe(...observation);
      const scraped = await ours.metrics();
      expect(scraped).toBe(await reference.metrics());
      // Bounds are inclusive, values above the last bound count only in +Inf, sum and count.
      expect(scraped).toContain('test_request_duration_seconds_bucket{le="0.0005",route="/api/items/:id",method="GET",status="200"} 2');
      expect(scraped).toContain('test_request_duration_seconds_bucket{le="5",route="/api/items/:id",method="PATCH",status="200"} 2');
      expect(scraped).toContain('test_request_duration_seconds_bucket{le="+Inf",route="/api/items/:id",method="PATCH",status="200"} 3');
      expect(scraped).toMatch(/test_requests_total\{route="\/api\/items\/:id",method="GET",status="200"\} 3\n/);
      expect(await ours.getMetricsAsJSON()).toEqual(await reference.getMetricsAsJSON());
    });
  }

  it('keeps series apart whose label values would join into the same text', async () => {
    const histogram = new KeyedHistogram({ ...histogramConfig, labelNames: ['a', 'b'] });
    histogram.observe(['x y', 'z'], 0.001);
    histogram.observe(['x', 'y z'], 0.001);
    expect([...histogram.series()].map((series) => series.labels)).toEqual([
      { a: 'x y', b: 'z' },
      { a: 'x', b: 'y z' },
    ]);
  });

  it('start from nothing again on reset, as the registry resets its metrics', async () => {
    const { ours, reference, observe } = both(Registry.PROMETHEUS_CONTENT_TYPE);
    for (const observation of observations) observe(...observation);
    ours.resetMetrics();
    reference.resetMetrics();
    expect(await ours.metrics()).toBe(await reference.metrics());
    observe('/api/health', 'GET', '200', 0.002);
    expect(await ours.metrics()).toBe(await reference.metrics());
    expect(await ours.metrics()).toContain('test_request_duration_seconds_count{route="/api/health",method="GET",status="200"} 1');
    expect(await ours.metrics()).toContain('test_requests_total{route="/api/health",method="GET",status="200"} 1');
  });
});

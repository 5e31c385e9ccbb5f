import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { KeyedHistogram } from './keyed-histogram';
import { ObservationCounter } from './observation-counter';

/**
 * The process's Prometheus metrics, one registry per process (as prom-client intends): every
 * hosted service records into it, `/metrics` on METRICS_PORT serves it. Labels hold route
 * templates, methods, statuses, durable names and fixed outcomes only: never a user id, an email,
 * a project or a document id, so their number stays bounded.
 */
export const metricsRegistry = new Registry();

const registers = [metricsRegistry];

/** Recorded with the labels in this order: route template, method, status. */
export const httpRequestDuration = new KeyedHistogram({
  name: 'platform_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by route template, method and status',
  labelNames: ['route', 'method', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

/** The duration histogram's counts, scraped as a counter of their own. */
const httpRequests = new ObservationCounter({
  name: 'platform_http_requests_total',
  help: 'HTTP requests answered, by route template, method and status',
  histogram: httpRequestDuration,
});

export const busPublished = new Counter({
  name: 'platform_bus_published_total',
  help: 'Messages published to the bus, by subject family (ids removed) and result (stored, duplicate, failed)',
  labelNames: ['subject', 'result'] as const,
  registers,
});

export const busConsumed = new Counter({
  name: 'platform_bus_consumed_total',
  help: 'Messages handled by a durable consumer, by durable and outcome (ack, retry)',
  labelNames: ['durable', 'outcome'] as const,
  registers,
});

export const busRedeliveries = new Counter({
  name: 'platform_bus_redeliveries_total',
  help: 'Deliveries of a message a durable had been given before (its delivery count above 1)',
  labelNames: ['durable'] as const,
  registers,
});

export const busConsumerPending = new Gauge({
  name: 'platform_bus_consumer_pending',
  help: 'A durable consumer\'s lag: messages still waiting behind the last one it was given',
  labelNames: ['durable'] as const,
  registers,
});

export const busConsumeDuration = new Histogram({
  name: 'platform_bus_consume_duration_seconds',
  help: 'Time a durable consumer spent on one message',
  labelNames: ['durable'] as const,
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
  registers,
});

export const busDeliveryDelay = new Histogram({
  name: 'platform_bus_delivery_delay_seconds',
  help: 'Time a message waited between its publish and a delivery to a durable consumer (redeliveries included), by durable',
  labelNames: ['durable'] as const,
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120, 600],
  registers,
});

export const storeOperationDuration = new KeyedHistogram({
  name: 'platform_store_operation_duration_seconds',
  help: 'Time of one document store operation, by operation (find, updateOne, ...)',
  labelNames: ['operation'],
  buckets: [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
});
// They hand the registry what prom-client's Histogram and Counter would (keyed-histogram.ts), without being them.
metricsRegistry.registerMetric(httpRequestDuration as unknown as Histogram);
metricsRegistry.registerMetric(httpRequests as unknown as Counter);
metricsRegistry.registerMetric(storeOperationDuration as unknown as Histogram);

export const outboxBacklog = new Gauge({
  name: 'platform_outbox_backlog',
  help: 'Documents whose changes wait in their outbox for the bus, as counted by the last sweep',
  registers,
});

export const eventOutboxWaiting = new Gauge({
  name: 'platform_event_outbox_waiting',
  help: "Events about changes that are not documents (project settings, memberships, actions, domains) waiting in a service's outbox for the bus, as counted by its last sweep",
  labelNames: ['outbox'],
  registers,
});

export const realtimeStreams = new Gauge({
  name: 'platform_realtime_streams',
  help: 'Open realtime (SSE) streams on this gateway',
  registers,
});

export const actionRuns = new Counter({
  name: 'platform_action_runs_total',
  help: 'Action runs finished, by status',
  labelNames: ['status'] as const,
  registers,
});

export const aiRateLimited = new Counter({
  name: 'platform_ai_rate_limited_total',
  help: 'AI requests refused before any provider call because a budget was spent, by budget (user, project)',
  labelNames: ['limit'] as const,
  registers,
});

export const actionEventsDeferred = new Counter({
  name: 'platform_action_events_deferred_total',
  help: "Document events the actions executor put back on the bus because their project had its share of the executor's slots",
  registers,
});

export const actionBlockRuns = new Counter({
  name: 'platform_action_blocks_total',
  help: 'Blocks of action runs, by block name and status (succeeded, failed, skipped)',
  labelNames: ['block', 'status'] as const,
  registers,
});

export const loginThrottled = new Counter({
  name: 'platform_login_throttled_total',
  help: 'Sign-in attempts refused by the login throttle',
  registers,
});

export const gatewayRateLimited = new Counter({
  name: 'platform_gateway_rate_limited_total',
  help: 'Requests the gateway refused by its rate limit (RATE_LIMIT_MAX), by caller kind (user: a signed-in user, address: anyone else)',
  labelNames: ['caller'] as const,
  registers,
});

export const visitorRateLimited = new Counter({
  name: 'platform_visitor_rate_limited_total',
  help: 'Visitor check-ins refused by the rate limit, by limit (ip: one address, kiosk: one kiosk binding)',
  labelNames: ['limit'] as const,
  registers,
});

/** What each embedded data directory of this process holds, measured when Prometheus scrapes. */
const embeddedDataSources = new Set<() => Promise<number>>();

/** The trace export's own health: spans sent, refused or lost, so a collector that is down shows. */
export const traceSpans = new Counter({
  name: 'platform_trace_spans_total',
  help: 'Recorded spans by what became of them: exported, failed (the collector refused them or did not answer in time, or a span could not be encoded), dropped (the export queue was full)',
  labelNames: ['outcome'] as const,
  registers,
});

export const embeddedDataBytes = new Gauge({
  name: 'platform_embedded_data_bytes',
  help: 'Bytes the embedded store and key-value log keep under DATA_DIR (absent when MongoDB and Redis serve)',
  registers,
  async collect() {
    let total = 0;
    for (const measure of embeddedDataSources) total += await measure();
    this.set(total);
  },
});

/** Adds a data directory's size to `platform_embedded_data_bytes`; answers the function that removes it. */
export function measureEmbeddedData(measure: () => Promise<number>): () => void {
  embeddedDataSources.add(measure);
  return () => embeddedDataSources.delete(measure);
}

/** The registry in the Prometheus text format. */
export async function metricsText(): Promise<string> {
  return metricsRegistry.metrics();
}

/**
 * A subject without its ids, for a label: `platform.docs.<project>.<type>.created` becomes
 * `platform.docs.created`.
 */
export function subjectFamily(subject: string): string {
  const tokens = subject.split('.');
  return tokens.length <= 3 ? subject : `${tokens[0]}.${tokens[1]}.${tokens[tokens.length - 1]}`;
}

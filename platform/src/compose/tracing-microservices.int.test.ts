import { randomBytes } from 'node:crypto';
import { startOtlpJsonCollector, type CollectedSpan, type OtlpJsonCollector } from '@platform/telemetry/testing';
import { describeWithBackends } from '@platform/testkit';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { httpCaller } from '../testing/platform-http';
import { startLocalTopology, type LocalTopology } from './local-topology';

/** OTLP's span kinds (the API's SpanKind plus one). */
const SERVER = 2;
const PRODUCER = 4;
const CONSUMER = 5;

/**
 * Issue 27's trace in the microservice shape: every service a process of its own, each exporting
 * its spans over OTLP/HTTP (JSON) to a collector the test runs, so the trace is joined only by
 * what travels between the processes: `traceparent` on the proxied request and in the NATS
 * message headers.
 */
describeWithBackends(['mongo', 'nats', 'redis'], 'traces across service processes', (urls) => {
  let collector: OtlpJsonCollector;
  let topology: LocalTopology;
  const call = httpCaller(() => topology.gatewayUrl);

  beforeAll(async () => {
    collector = await startOtlpJsonCollector();
    topology = await startLocalTopology({
      backendUrls: urls,
      extraEnvironment: {
        LOG_LEVEL: 'warn',
        MONGO_DATABASE: `tracing_${randomBytes(4).toString('hex')}`,
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        // Batches leave every 100 ms instead of 5 s, so the test waits for spans briefly.
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
    });
  }, 180_000);

  afterAll(async () => {
    await topology?.stop();
    await collector?.close();
  });

  it('a POST .../data is one trace: gateway, data (store, outbox), the publish, then audit, the action executor (run and block) and the realtime notifier, each in its own process', async () => {
    const token = (await call('POST', '/api/auth/register', undefined, { email: `tracer-${randomBytes(3).toString('hex')}@example.org`, password: 'tracer password 1' })).body.token as string;
    const projectId = (await call('POST', '/api/projects', token, { name: 'Traced across services' })).body.id as string;
    expect((await call('POST', `/api/projects/${projectId}/types`, token, { id: 'tickets', name: 'tickets' })).status).toBe(201);
    const action = await call('POST', `/api/projects/${projectId}/actions`, token, {
      title: 'Mail on new ticket',
      triggers: [{ id: 'created', triggerName: 'documentCreated', configuration: { typeId: 'tickets' } }],
      blocks: [{ id: 'mail', blockName: 'send-mail', configuration: { to: 'support@example.org', subject: 'New ticket', text: 'see it' } }],
    });
    expect(action.status).toBe(201);

    // No traceparent from the client: the gateway starts the trace.
    expect((await call('POST', `/api/projects/${projectId}/types/tickets/data`, token, { title: 'across processes' })).status).toBe(201);

    // Each span is named by the route that served the request: the gateway's by the service's route too (from its OpenAPI document).
    const route = 'POST /api/projects/:projectId/types/:typeId/data';
    const dataSpan = await vi.waitFor(
      () => {
        const found = collector.spans().find((span) => span.service === 'platform-data' && span.name === route);
        if (!found) throw new Error('no span of the data service for the POST yet');
        return found;
      },
      { timeout: 15_000, interval: 100 },
    );
    const inTrace = () => collector.spans().filter((span) => span.traceId === dataSpan.traceId);
    const named = (service: string, name: string) => inTrace().find((span) => span.service === service && span.name === name);
    const parentOf = (span: CollectedSpan | undefined) => inTrace().find((candidate) => candidate.spanId === span?.parentSpanId);
    // Each span is exported when it ends, in whichever batch is open then: a consumer span ends
    // after everything its handler did (the block's span may have left 100 ms earlier), so the
    // wait names every span the assertions below read, not only the innermost ones.
    await vi.waitFor(
      () => {
        for (const [service, name] of [
          ['platform-data', 'outbox drain'],
          ['platform-data', 'publish platform.docs.created'],
          ['platform-audit', 'consume audit-trail'],
          ['platform-actions', 'consume actions-executor'],
          ['platform-actions', 'action run'],
          ['platform-actions', 'block send-mail'],
          ['platform-gateway', 'consume gateway-sync-notifier'],
        ] as const)
          expect(named(service, name), `${name} (${service})`).toBeDefined();
        expect(parentOf(dataSpan), 'the gateway span').toBeDefined();
      },
      { timeout: 15_000, interval: 100 },
    );

    expect(dataSpan.kind).toBe(SERVER);
    const gatewaySpan = parentOf(dataSpan);
    expect(gatewaySpan).toMatchObject({ service: 'platform-gateway', kind: SERVER, parentSpanId: undefined });
    expect(gatewaySpan?.name).toBe(route);
    expect(inTrace().filter((span) => span.service === 'platform-data' && span.name.startsWith('store ') && parentOf(span) === dataSpan).length).toBeGreaterThan(0);
    const drain = named('platform-data', 'outbox drain');
    expect(parentOf(drain)).toEqual(dataSpan);
    const publish = named('platform-data', 'publish platform.docs.created');
    expect(publish?.kind).toBe(PRODUCER);
    expect(parentOf(publish)).toEqual(drain);
    for (const [service, durable] of [
      ['platform-audit', 'audit-trail'],
      ['platform-actions', 'actions-executor'],
      ['platform-gateway', 'gateway-sync-notifier'],
    ] as const) {
      const consume = named(service, `consume ${durable}`);
      expect(consume?.kind, durable).toBe(CONSUMER);
      expect(parentOf(consume), durable).toEqual(publish);
    }
    const run = named('platform-actions', 'action run');
    expect(parentOf(run)).toEqual(named('platform-actions', 'consume actions-executor'));
    expect(parentOf(named('platform-actions', 'block send-mail'))).toEqual(run);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { createInProcessBus, type EventBus } from '@platform/bus';
import { createLogger } from '@platform/kit';
import { instrumentBus, instrumentStore } from '@platform/telemetry';
import { startMemoryTracing } from '@platform/telemetry/testing';
import { createEmbeddedStore, type EmbeddedDocumentStore } from '@platform/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EntityScope } from './entity';
import { EntityWriter } from './entity-writer';
import { History } from './history';
import { OutboxDrainer } from './outbox';
import { UpdatedAtClock } from './updated-at-clock';

const scope: EntityScope = { projectId: 'p1', typeId: 'tasks', collection: 'tenant-p1-tasks' };

describe('a traced entity write', () => {
  let dataDir: string;
  let store: EmbeddedDocumentStore;
  let bus: EventBus;
  let tracing: ReturnType<typeof startMemoryTracing>;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'outbox-tracing-'));
    store = await createEmbeddedStore({ dataDir });
    bus = createInProcessBus();
    tracing = startMemoryTracing();
  });

  afterEach(async () => {
    await tracing.shutdown();
    await bus.close();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('joins the caller\'s trace: the store section and the drain under it, the publish under the drain, and the outbox pull an event of the drain span, not a span of its own', async () => {
    const traced = instrumentStore(store);
    const history = new History(traced);
    const drainer = new OutboxDrainer(traced, instrumentBus(bus), history, Date.now, createLogger({ level: 'silent' }));
    const writer = new EntityWriter(traced, history, drainer, new UpdatedAtClock(Date.now), undefined);
    // The collection's first write registers it for the sweeper: outside the trace looked at.
    const created = await writer.create(scope, { title: 'a' }, { userId: 'u1', id: 'e1' });
    await drainer.settled();
    tracing.reset();

    const request = trace.getTracer('test').startSpan('request');
    await writer.patch(scope, created.id, { $set: { title: 'b' } }, { userId: 'u1', baseRevision: created.revision, traceContext: trace.setSpan(ROOT_CONTEXT, request) });
    request.end();
    await drainer.settled();

    const spans = tracing.spans();
    const drain = spans.find((span) => span.name === 'outbox drain');
    expect(drain?.events.map((event) => ({ name: event.name, revision: event.attributes?.['platform.outbox.revision'] }))).toEqual([{ name: 'outbox pull started', revision: 1 }]);
    // The entity's own update (its atomic section, with its history record) is the one updateOne span; the pull that empties its outbox adds none.
    const updates = spans.filter((span) => span.name === 'store updateOne');
    expect(updates).toHaveLength(1);
    // All of it in the request's trace, handed on explicitly: the section and the drain under the request, the publish under the drain.
    expect(updates[0]?.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(drain?.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(spans.find((span) => span.name.startsWith('publish '))?.parentSpanContext?.spanId).toBe(drain?.spanContext().spanId);
    expect(await store.collection(scope.collection).findById('e1')).toMatchObject({ revision: 1, _outbox: [] });
  });
});

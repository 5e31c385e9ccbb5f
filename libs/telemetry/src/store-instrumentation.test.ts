import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT_CONTEXT, SpanStatusCode, trace } from '@opentelemetry/api';
import { createEmbeddedStore, isEmbeddedStore, STORE_LOG_FILE, type DocumentStore } from '@platform/storage';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { metricsText, storeOperationDuration } from './metrics';
import { inStoreWriteSpan, instrumentStore } from './store-instrumentation';
import { startMemoryTracing } from './testing';

async function timedCount(operation: string): Promise<number> {
  const { values } = await storeOperationDuration.get();
  return values.find((value) => value.metricName === 'platform_store_operation_duration_seconds_count' && value.labels.operation === operation)?.value ?? 0;
}

describe('instrumentStore', () => {
  let dataDir: string;
  let store: DocumentStore;
  // One tracer provider for the file: the API's tracers keep the first provider they were used with.
  let tracing: ReturnType<typeof startMemoryTracing>;
  beforeAll(() => {
    tracing = startMemoryTracing();
  });
  afterAll(async () => {
    await tracing.shutdown();
  });
  beforeEach(async () => {
    tracing.reset();
    dataDir = await mkdtemp(join(tmpdir(), 'store-instrumentation-'));
    store = instrumentStore(await createEmbeddedStore({ dataDir }));
  });
  afterEach(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('times every operation by name and keeps the adapter itself (results, errors, its own extras)', async () => {
    const before = { insertOne: await timedCount('insertOne'), findById: await timedCount('findById') };
    const things = store.collection('things');
    await things.insertOne({ id: 'a', n: 1 });
    await expect(things.insertOne({ id: 'a', n: 2 })).rejects.toThrow(/duplicate key/);
    expect(await things.findById('a')).toMatchObject({ id: 'a', n: 1 });
    expect(await timedCount('insertOne')).toBe(before.insertOne + 2);
    expect(await timedCount('findById')).toBe(before.findById + 1);
    expect(isEmbeddedStore(store)).toBe(true);
    expect(store.kind).toBe('embedded');
    expect(await metricsText()).toMatch(/^platform_store_operation_duration_seconds_bucket\{le="0\.0005",operation="findById"\} \d+$/m);
  });

  it('answers one wrapper per collection name, still timing each call', async () => {
    expect(store.collection('things')).toBe(store.collection('things'));
    expect(store.collection('others')).not.toBe(store.collection('things'));
    const before = await timedCount('count');
    await store.collection('things').count({});
    await store.collection('things').count({});
    expect(await timedCount('count')).toBe(before + 2);
  });

  it('times the writes of an atomic section, which still reach the log as one line', async () => {
    const before = await timedCount('insertOne');
    await store.atomically(async (section) => {
      await section.collection('things').insertOne({ id: 'a' });
      await section.collection('things.history').insertOne({ id: 'a@0' });
    });
    expect(await timedCount('insertOne')).toBe(before + 2);
    const lines = (await readFile(join(dataDir, STORE_LOG_FILE), 'utf8')).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([{ group: [{ c: 'things', put: { id: 'a' } }, { c: 'things.history', put: { id: 'a@0' } }] }]);
  });

  it('makes a write a span only under a recorded parent: inStoreWriteSpan, with the store and collection', async () => {
    const things = store.collection('things');
    await inStoreWriteSpan(undefined, store, 'insertOne', 'things', () => things.insertOne({ id: 'outside' }));
    expect(tracing.spans()).toHaveLength(0);
    const request = trace.getTracer('test').startSpan('request');
    const parent = trace.setSpan(ROOT_CONTEXT, request);
    const updated = await inStoreWriteSpan(parent, store, 'updateOne', 'things', () => things.updateOne({ id: 'outside' }, { $set: { seen: true } }));
    request.end();
    expect(updated).toMatchObject({ id: 'outside', seen: true });
    const update = tracing.spans().find((span) => span.name === 'store updateOne');
    expect(update?.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(update?.attributes).toMatchObject({ 'db.system.name': 'embedded', 'db.operation.name': 'updateOne', 'db.collection.name': 'things' });
  });

  it('marks a failed write\'s span and passes the error on', async () => {
    const things = store.collection('things');
    await things.insertOne({ id: 'taken' });
    const request = trace.getTracer('test').startSpan('request');
    await expect(inStoreWriteSpan(trace.setSpan(ROOT_CONTEXT, request), store, 'insertOne', 'things', () => things.insertOne({ id: 'taken' }))).rejects.toThrow(/duplicate key/);
    request.end();
    expect(tracing.spans().find((span) => span.name === 'store insertOne')?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('makes no span for an operation by itself, in a trace or not: a store call does not know its caller\'s trace', async () => {
    const things = store.collection('things');
    await things.insertOne({ id: 'read-me' });
    const before = await timedCount('findById');
    expect(await things.findById('read-me')).toMatchObject({ id: 'read-me' });
    expect(await timedCount('findById')).toBe(before + 1);
    expect(tracing.spans()).toHaveLength(0);
  });
});

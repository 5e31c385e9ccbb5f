import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEventBus, type BusMessage } from '@platform/bus';
import type { DocumentEvent } from '@platform/contracts';
import { createEmbeddedStore } from '@platform/storage';
import { describeWithBackend } from '@platform/testkit';
import { afterEach, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { runVisitorsRetention } from './visitors-retention';

const DAY = 24 * 60 * 60 * 1000;
let dataDir: string | undefined;

afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describeWithBackend('nats', 'visitor retention command on NATS', ({ url }) => {
  it('publishes the erasure events directly and leaves no outbox entry behind', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'retention-nats-'));
    const projectId = `p${randomBytes(6).toString('hex')}`;
    const collection = `tenant-${projectId}-guests`;
    const now = Date.now();
    const store = await createEmbeddedStore({ dataDir });
    await store.collection('visitor-retention').insertOne({ id: `${collection}/ada`, kind: 'visitor', projectId, typeId: 'guests', collection, entityId: 'ada', deleteOn: now - DAY, deleteOnPreference: DAY });
    await store.collection(collection).insertOne({ id: 'ada', name: 'Ada', revision: 0, createdAt: now - 2 * DAY, updatedAt: now - 2 * DAY, deleteOn: now - DAY, deleteOnPreference: DAY });
    await store.close();

    const consumer = await openEventBus({ natsUrl: url });
    const events: Array<BusMessage<DocumentEvent>> = [];
    const subscription = await consumer.subscribe<DocumentEvent>({ durable: `retention-${projectId}`, filter: `platform.docs.${projectId}.>`, handler: async (message) => void events.push(message) });
    try {
      expect(await runVisitorsRetention(loadPlatformConfig({ DATA_DIR: dataDir, NATS_URL: url, LOG_LEVEL: 'silent' }))).toEqual({ visitors: 1, events: 0 });
      await expect.poll(() => events.map((event) => [event.data.entityId, event.data.kind, event.data.change.userId])).toEqual([['ada', 'deleted', 'system:retention']]);
    } finally {
      await subscription.stop();
      await consumer.close();
    }
    const after = await createEmbeddedStore({ dataDir });
    try {
      expect(await after.collection(collection).findById('ada')).not.toHaveProperty('_outbox.0');
    } finally {
      await after.close();
    }
  });
});

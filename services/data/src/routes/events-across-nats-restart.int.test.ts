import { createNatsBus, type BusMessage } from '@platform/bus';
import type { DocumentEvent } from '@platform/contracts';
import { startTestGateway } from '@platform/gateway/testing';
import { describeWithOwnServer } from '@platform/testkit';
import { expect, it } from 'vitest';
import { dataService } from '../app';

describeWithOwnServer('nats', 'document events across a NATS outage', (ownServer) => {
  it('delivers every change, including writes made while NATS was down, and writes stay fast', async () => {
    const server = ownServer();
    const bus = await createNatsBus({ url: server.url });
    const platform = await startTestGateway({ services: [dataService], bus });
    const received: Array<BusMessage<DocumentEvent>> = [];
    try {
      await bus.subscribe<DocumentEvent>({ durable: 'events-outage-test', filter: 'platform.docs.>', handler: async (message) => void received.push(message) });
      const token = await platform.signIn('owner');
      const projectId = await platform.seedProject({ ownerId: 'owner' });
      const typeId = (await platform.call('POST', `/api/projects/${projectId}/types`, { token, body: { name: 'Orders' } })).body.id as string;
      const path = `/api/projects/${projectId}/types/${typeId}/data`;
      const expected = new Set<string>();
      const write = async (n: number) => {
        const created = await platform.call('POST', path, { token, body: { n } });
        expect(created.status).toBe(201);
        const patched = await platform.call('PATCH', `${path}/${created.body.id}`, { token, body: { modifier: { $set: { n: n + 1 } }, baseRevision: 0 } });
        expect(patched.status).toBe(200);
        const collection = `tenant-${projectId}-${typeId}`;
        expected.add(`${collection}/${created.body.id}/0`).add(`${collection}/${created.body.id}/1`);
      };

      for (let n = 0; n < 5; n += 1) await write(n);
      await server.stop({ kill: true });
      // Writes keep succeeding while the bus is down; their events wait in the documents' outboxes.
      const outageStarted = Date.now();
      for (let n = 5; n < 10; n += 1) await write(n);
      // Ten writes without a bus: none waits for a publish timeout.
      expect(Date.now() - outageStarted).toBeLessThan(5_000);
      await server.restart();

      // The type is an entity too (its own event, in the types collection); only the documents count here.
      const documentIds = () => received.map((message) => message.msgId).filter((id) => id.startsWith(`tenant-${projectId}-${typeId}/`));
      await expect.poll(() => new Set(documentIds()).size, { timeout: 40_000, interval: 250 }).toBe(expected.size);
      expect(new Set(documentIds())).toEqual(expected);
      // At-least-once: a delivery whose ack died with the server comes again; consumers dedupe by message id.
    } finally {
      await platform.close();
      await bus.close();
    }
  }, 60_000);
});

import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNatsBus } from '@platform/bus';
import { dataService } from '@platform/data';
import { startTestGateway } from '@platform/gateway/testing';
import { createMongoStore } from '@platform/storage';
import { describeWithBackend, describeWithOwnServer, freePort, startProcess, waitForPort, type ManagedProcess } from '@platform/testkit';
import { expect, it } from 'vitest';
import { TRAIL_COLLECTION } from '../trail/trail-item';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
/** Sequential writes on the MongoDB-compatible test server cost tens of milliseconds each; 200 keep the test near a minute. */
const WRITES = 200;

describeWithBackend('mongo', 'audit trail on MongoDB', ({ url: mongoUrl }) => {
  describeWithOwnServer('nats', 'audit trail while the audit process is killed and NATS restarts', (ownNats) => {
    it(`records every one of ${WRITES} writes exactly once`, async () => {
      const nats = ownNats();
      const database = `audit_int_${randomBytes(4).toString('hex')}`;
      const store = await createMongoStore({ url: mongoUrl, database });
      const bus = await createNatsBus({ url: nats.url });
      // Data service and gateway in this process; the audit service in its own, so it can be killed.
      const platform = await startTestGateway({ services: [dataService], store, bus });
      const auditPort = await freePort();
      const startAudit = async (): Promise<ManagedProcess> => {
        const audit = startProcess(process.execPath, ['--import', 'tsx', 'platform/src/main.ts'], {
          cwd: repositoryRoot,
          env: { PATH: process.env.PATH ?? '', SERVICES: 'audit', PORT: String(auditPort), MONGO_URL: mongoUrl, MONGO_DATABASE: database, NATS_URL: nats.url, LOG_LEVEL: 'warn' },
        });
        await waitForPort(auditPort, 60_000);
        return audit;
      };
      let audit = await startAudit();
      try {
        const token = await platform.signIn('owner');
        const projectId = await platform.seedProject({ ownerId: 'owner' });
        await platform.call('POST', `/api/projects/${projectId}/types`, { token, body: { id: 'orders', name: 'Orders' } });
        const path = `/api/projects/${projectId}/types/orders/data`;
        const expected = new Set([`tenant-${projectId}-types/orders/0`]);

        const write = async (n: number) => {
          const response = await platform.call('POST', path, { token, body: { id: `o${n}`, title: `Order ${n}` } });
          expect(response.status, JSON.stringify(response.body)).toBe(201);
          expected.add(`tenant-${projectId}-orders/o${n}/0`);
        };
        const batch = async (from: number, to: number) => {
          for (let n = from; n < to; n += 1) await write(n);
        };

        await batch(0, 50);
        await audit.stop('SIGKILL');
        await batch(50, 80);
        audit = await startAudit();
        await batch(80, 120);
        await nats.stop({ kill: true });
        // Writes go on while NATS is down; their events wait in the documents' outboxes.
        await batch(120, 150);
        await nats.restart();
        await batch(150, 180);
        await audit.stop('SIGKILL');
        audit = await startAudit();
        await batch(180, WRITES);

        const items = store.collection(TRAIL_COLLECTION);
        const deadline = Date.now() + 90_000;
        while ((await items.count({ projectId })) < expected.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
        const stored = await items.find({ projectId }, { projection: { id: 1, entityId: 1, revision: 1 } });
        expect(stored).toHaveLength(expected.size);
        expect(new Set(stored.map((item) => item.id))).toEqual(expected);
        expect(new Set(stored.map((item) => `${item.entityId}/${item.revision}`)).size).toBe(expected.size);
      } finally {
        await audit.stop();
        await platform.close();
        await bus.close();
        await store.close();
      }
    }, 300_000);
  });
});

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
const WRITES = 1_000;
/** Writers in flight at once: a write on the MongoDB-compatible test server costs tens of milliseconds. */
const CONCURRENCY = 4;

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
          // A process hosting only some services needs the secret its gateway signs with; this one receives no requests.
          env: { PATH: process.env.PATH ?? '', SERVICES: 'audit', PORT: String(auditPort), MONGO_URL: mongoUrl, MONGO_DATABASE: database, NATS_URL: nats.url, LOG_LEVEL: 'warn', PRINCIPAL_SECRET: randomBytes(32).toString('hex') },
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
          let next = from;
          const writer = async () => {
            while (next < to) await write(next++);
          };
          await Promise.all(Array.from({ length: CONCURRENCY }, writer));
        };
        // Each fault strikes while writers are in flight, not between batches.
        const during = async (from: number, to: number, fault: () => Promise<void>) => {
          await Promise.all([batch(from, to), new Promise((r) => setTimeout(r, 100)).then(fault)]);
        };

        await batch(0, 200);
        await during(200, 350, () => audit.stop('SIGKILL'));
        audit = await startAudit();
        await batch(350, 500);
        await during(500, 600, () => nats.stop({ kill: true }));
        // Writes go on while NATS is down; their events wait in the documents' outboxes.
        await during(600, 750, () => nats.restart());
        await during(750, 850, async () => {
          await audit.stop('SIGKILL');
          audit = await startAudit();
        });
        await batch(850, WRITES);

        const items = store.collection(TRAIL_COLLECTION);
        const deadline = Date.now() + 120_000;
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
    }, 600_000);
  });
});

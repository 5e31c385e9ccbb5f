import type { DataDeps, StoredEntity } from '@platform/documents';
import { DuplicateKeyError, type StoredDocument } from '@platform/storage';
import { recordScope } from '../visitors/visitor-records';
import type { RetentionLedger } from './retention-ledger';

/** Where the service listed its visitor collections before the ledger existed. */
const LEGACY_REGISTRY = 'visitor-collections';
const SECRETS = 'visitor-secrets';

interface LegacyCollectionRecord extends StoredDocument {
  projectId: string;
  typeId: string;
  eventScopes?: Array<{ typeId: string; collection: string }>;
}

export interface AdoptedVisitors {
  visitors: number;
  events: number;
}

function isScheduled(document: StoredEntity): document is StoredEntity & { deleteOn: number } {
  return document.deletedAt === undefined && typeof document.deleteOn === 'number';
}

/**
 * Visitors checked in before the retention ledger existed are in no ledger, so the job would never
 * erase them. This adopts them once, trusting only what a member's write cannot forge: a visitor
 * is adopted when the service issued it a secret (visitor-secrets is outside every document route),
 * and an event when its first change was written by that visitor's own kiosk session
 * (`visitor:<id>`, a user id no signed-in caller has). Events a member recorded for a visitor are
 * left alone, as the ledger leaves them alone for new visitors too. The old registry is removed
 * afterwards, so later runs skip this at the cost of one read.
 */
export async function adoptLegacyVisitors(data: DataDeps, ledger: RetentionLedger): Promise<AdoptedVisitors> {
  const registry = data.store.collection<LegacyCollectionRecord>(LEGACY_REGISTRY);
  const legacy = await registry.find({});
  const adopted: AdoptedVisitors = { visitors: 0, events: 0 };
  if (legacy.length === 0) return adopted;
  const secretIds = (await data.store.collection(SECRETS).find({}, { projection: { id: 1 } })).map((secret) => secret.id);
  for (const record of legacy) {
    const visitors = recordScope(record.projectId, record.typeId);
    const prefix = `${record.id}/`;
    for (const visitorId of secretIds.filter((id) => id.startsWith(prefix)).map((id) => id.slice(prefix.length))) {
      const visitor = await data.store.collection<StoredEntity>(record.id).findById(visitorId, { projection: { _outbox: 0 } });
      if (!visitor || !isScheduled(visitor)) continue;
      try {
        await ledger.schedule(visitors, visitorId, { deleteOn: visitor.deleteOn, deleteOnPreference: typeof visitor.deleteOnPreference === 'number' ? visitor.deleteOnPreference : 0 });
      } catch (error) {
        if (error instanceof DuplicateKeyError) continue;
        throw error;
      }
      adopted.visitors += 1;
      for (const eventScope of record.eventScopes ?? []) {
        const events = recordScope(record.projectId, eventScope.typeId);
        for (const event of await data.store.collection<StoredEntity>(events.collection).find({ visitorId }, { projection: { _outbox: 0 } })) {
          const [creation] = await data.history.changes(events.collection, event);
          if (creation?.userId !== `visitor:${visitorId}`) continue;
          await ledger.recordEvent(events, event.id, visitors, visitorId);
          adopted.events += 1;
        }
      }
    }
  }
  await registry.deleteMany({});
  return adopted;
}

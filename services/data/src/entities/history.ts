import { applyUpdate, DuplicateKeyError, type DocumentStore, type StoredDocument } from '@platform/storage';
import type { EventSource } from '@platform/contracts';
import { historyCollection } from '../domain/collections';
import { loadChange, storeChange, type OutboxEntry, type StoredChange } from './entity';
import { HistoryPrefixes } from './history-prefixes';

/** Changes kept in memory across entities, so a write's answer reads only the newest from the store. */
const CACHED_CHANGES = 50_000;

interface HistoryRecord extends StoredDocument, StoredChange {
  entityId: string;
}

/**
 * The history of every entity of a collection, one record per change in `{collection}.history`,
 * so an entity with 100,000 changes stays a small document and its writes do not slow down.
 */
export class History {
  private readonly indexed = new Set<string>();

  constructor(
    private readonly store: DocumentStore,
    private readonly prefixes = new HistoryPrefixes(CACHED_CHANGES),
  ) {}

  private async collectionFor(collection: string) {
    const history = this.store.collection<HistoryRecord>(historyCollection(collection));
    if (!this.indexed.has(collection)) {
      await history.ensureIndex({ keys: { entityId: 1, revision: 1 }, unique: true });
      this.indexed.add(collection);
    }
    return history;
  }

  /** Appends an outbox entry; a second append of the same revision is a no-op (drains may race). */
  async append(collection: string, entityId: string, entry: OutboxEntry): Promise<void> {
    const history = await this.collectionFor(collection);
    try {
      await history.insertOne({ id: `${entityId}:${entry.revision}`, entityId, ...storeChange(entry) });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
  }

  /** Changes of one entity in revision order (after `afterRevision`), including any still in its outbox. */
  async changes(collection: string, entityId: string, outbox: StoredChange[] | undefined, afterRevision = -2): Promise<EventSource[]> {
    const history = await this.collectionFor(collection);
    const key = `${collection}/${entityId}`;
    const cached = this.prefixes.get(key);
    const stored = await history.find({ entityId, revision: { $gt: Math.max(afterRevision, cached.length - 1) } }, { sort: { revision: 1 } });
    const records = stored.map(loadChange);
    this.prefixes.extend(key, records);
    const byRevision = new Map<number, EventSource>();
    for (let revision = Math.max(0, afterRevision + 1); revision < cached.length; revision += 1) byRevision.set(revision, cached[revision]!);
    for (const { revision, userId, timestamp, baseRevision, modifier } of records) byRevision.set(revision, { userId, timestamp, baseRevision, modifier });
    for (const { revision, userId, timestamp, baseRevision, modifier } of (outbox ?? []).map(loadChange)) {
      if (revision > afterRevision && !byRevision.has(revision)) byRevision.set(revision, { userId, timestamp, baseRevision, modifier });
    }
    return [...byRevision].sort(([a], [b]) => a - b).map(([, change]) => change);
  }

  /** The entity as it was at `revision`, replayed from its changes (used to explain a conflict). */
  async stateAt(collection: string, entityId: string, revision: number): Promise<Record<string, unknown>> {
    const history = await this.collectionFor(collection);
    const records = await history.find({ entityId, revision: { $lte: revision } }, { sort: { revision: 1 } });
    let state: Record<string, unknown> = {};
    for (const record of records.map(loadChange)) state = applyUpdate(state, record.modifier as never);
    return { ...state, revision };
  }
}

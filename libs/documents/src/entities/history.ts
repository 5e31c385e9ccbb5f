import { DuplicateKeyError, replayUpdates, type DocumentStore, type StoreSection, type StoredDocument, type UpdateModifier } from '@platform/storage';
import type { EventSource } from '@platform/contracts';
import { DEFAULT_HISTORY_CACHE_CHANGES } from '../config';
import { historyCollection } from '../domain/collections';
import { loadChange, storeChange, type OutboxEntry, type StoredChange, type StoredEntity } from './entity';
import { HistoryPrefixes } from './history-prefixes';

interface HistoryRecord extends StoredDocument, StoredChange {
  entityId: string;
}

/** What History needs of an entity to answer its changes. */
export type HistoryOwner = Pick<StoredEntity, 'id' | 'revision' | 'deletedAt' | '_outbox'>;

/**
 * The history of every entity of a collection, one record per change in `{collection}.history`,
 * so an entity with 100,000 changes stays a small document and its writes do not slow down.
 */
export class History {
  private readonly indexed = new Set<string>();

  constructor(
    private readonly store: DocumentStore,
    /** Changes kept in memory across entities, so a write's answer reads only the newest from the store. */
    private readonly prefixes = new HistoryPrefixes(DEFAULT_HISTORY_CACHE_CHANGES),
  ) {}

  private async collectionFor(collection: string, section: StoreSection = this.store) {
    const history = section.collection<HistoryRecord>(historyCollection(collection));
    if (!this.indexed.has(collection)) {
      await history.ensureIndex({ keys: { entityId: 1, revision: 1 }, unique: true });
      this.indexed.add(collection);
    }
    return history;
  }

  /**
   * Appends an outbox entry; a second append of the same revision is a no-op (drains may race).
   * A record this call stored stays as it is, so it may continue the entity's cached prefix.
   * Inside an atomic section, `section` is the section's store.
   */
  async append(collection: string, entityId: string, outboxEntry: OutboxEntry, section?: StoreSection): Promise<void> {
    const history = await this.collectionFor(collection, section);
    // What the event of an action's write carries stays out of history: readers of a document's changes never see it.
    const { actionDepth, actionChain, ...entry } = outboxEntry;
    const stored = storeChange(entry);
    try {
      await history.insertOne({ id: `${entityId}:${entry.revision}`, entityId, ...stored });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      return;
    }
    this.prefixes.extend(`${collection}/${entityId}`, [{ ...entry, modifierCharacters: stored.modifierJson.length }]);
  }

  /**
   * Changes of `entity` up to its revision, in revision order (after `afterRevision`), including
   * any still in its outbox. The store is asked only for what the cached prefix lacks, and not at
   * all when the prefix reaches the entity's revision (a write's answer, once its drain has appended
   * the change). A soft-deleted entity's history may have been erased (see erase), on this replica
   * or another, so its changes always come from the store.
   */
  async changes(collection: string, entity: HistoryOwner, afterRevision = -2): Promise<EventSource[]> {
    const { id: entityId, revision } = entity;
    const key = `${collection}/${entityId}`;
    const cacheable = entity.deletedAt === undefined;
    const cached = cacheable ? this.prefixes.get(key) : [];
    // Revisions 0 to known - 1 come from the prefix; a prefix that runs past `revision` is cut there.
    const known = Math.min(cached.length, revision + 1);
    const records = known > revision ? [] : await this.newerRecords(collection, entityId, Math.max(afterRevision, known - 1), revision);
    if (cacheable) this.prefixes.extend(key, records);
    const outbox = entity._outbox ?? [];
    // A write's answer: the prefix holds every change, its own included (no outbox entry to parse).
    if (records.length === 0 && outbox.every((stored) => stored.revision < known)) return cached.slice(Math.max(0, afterRevision + 1), known);
    const byRevision = new Map<number, EventSource>();
    for (let index = Math.max(0, afterRevision + 1); index < known; index += 1) byRevision.set(index, cached[index]!);
    for (const record of records) byRevision.set(record.revision, changeOf(record));
    for (const entry of outbox.map(loadChange)) {
      if (entry.revision > afterRevision && entry.revision <= revision && !byRevision.has(entry.revision)) byRevision.set(entry.revision, changeOf(entry));
    }
    return [...byRevision].sort(([a], [b]) => a - b).map(([, change]) => change);
  }

  /**
   * `changes(collection, entity)` as the text of a JSON array. A write's answer, whose changes the
   * cached prefix holds (its own included), joins the texts the prefix keeps instead of encoding
   * the whole history again; anything else is encoded from changes().
   */
  async changesJson(collection: string, entity: HistoryOwner): Promise<string> {
    // The same condition as changes()'s answer from the prefix alone: a live entity whose prefix reaches its revision.
    const cached = entity.deletedAt === undefined ? this.prefixes.jsonThrough(`${collection}/${entity.id}`, entity.revision) : undefined;
    return cached ?? JSON.stringify(await this.changes(collection, entity));
  }

  /**
   * Removes a soft-deleted entity's changes before `revision` (personal data erased by visitor
   * retention), here and from this process's cache. Other replicas never answer a deleted entity's
   * changes from their caches, and their least recently used entries age out.
   */
  async erase(collection: string, entityId: string, revision: number): Promise<void> {
    const history = await this.collectionFor(collection);
    await history.deleteMany({ entityId, revision: { $lt: revision } });
    this.prefixes.forget(`${collection}/${entityId}`);
  }

  private async newerRecords(collection: string, entityId: string, after: number, through: number): Promise<Array<OutboxEntry & { modifierCharacters: number }>> {
    const history = await this.collectionFor(collection);
    const stored = await history.find({ entityId, revision: { $gt: after, $lte: through } }, { sort: { revision: 1 } });
    return stored.map((record) => ({ ...loadChange(record), modifierCharacters: record.modifierJson.length }));
  }

  /** The entity as it was at `revision`, replayed from its changes (used to explain a conflict). */
  async stateAt(collection: string, entityId: string, revision: number): Promise<Record<string, unknown>> {
    const history = await this.collectionFor(collection);
    const records = await history.find({ entityId, revision: { $lte: revision } }, { sort: { revision: 1 } });
    return { ...replayUpdates(records.map((record) => loadChange(record).modifier as UpdateModifier)), revision };
  }
}

function changeOf({ userId, timestamp, baseRevision, modifier }: OutboxEntry): EventSource {
  return { userId, timestamp, baseRevision, modifier };
}

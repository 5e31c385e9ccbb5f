import { isRetentionErasure, RETENTION_USER_ID, type Access } from '@platform/contracts';
import type { TraceContext } from '@platform/kit';
import { DuplicateKeyError, type Collection, type DocumentStore, type Filter, type StoreSection } from '@platform/storage';
import { inStoreWriteSpan } from '@platform/telemetry';
import stringify from 'safe-stable-stringify';
import { TRAIL_ORDER } from '../domain/trail-query';
import { PurgedProjects } from './purged-projects';
import { FORGOTTEN_AUTHORS_COLLECTION, PROJECT_RECORD_TYPE_IDS, TRAIL_COLLECTION, TRAIL_ENTITIES_COLLECTION, type StoredTrailItem, type TrailEntityRecord, type TrailEntry } from './trail-item';

/** The entity's access as RLS reads it; a missing access is stored as `{}` (open to members). */
export interface AccessSnapshot {
  access: Access | undefined;
  /** Revision of the entity snapshot the access was read from. */
  revision: number;
}

/** The trail's two collections as one store (or atomic section) hands them out. */
interface TrailCollections {
  items: Collection<StoredTrailItem>;
  entities: Collection<TrailEntityRecord>;
}

function trailCollections(store: StoreSection): TrailCollections {
  return { items: store.collection<StoredTrailItem>(TRAIL_COLLECTION), entities: store.collection<TrailEntityRecord>(TRAIL_ENTITIES_COLLECTION) };
}

/** What an item written before its entity's erasure carries instead of the entity's content. */
function erasedFields(entry: TrailEntry, erasedRevision: number | undefined): Pick<StoredTrailItem, 'entityTitle' | 'erased'> | undefined {
  return erasedRevision !== undefined && entry.revision < erasedRevision ? { entityTitle: entry.entityId, erased: true } : undefined;
}

/** Items read from the store at a time when a whole trail is read (an export). */
const EXPORT_BATCH_SIZE = 1_000;

function sameAccess(a: Access, b: Access): boolean {
  return stringify(a) === stringify(b);
}

/**
 * The stored trail. Each item carries a copy of its entity's current access, so a filtered,
 * RLS-checked page and its total are one indexed query. The copy is kept current by last-writer-
 * wins on the entity revision: the entity record moves forward only, and every recorded change
 * ends by pushing the record's access onto the entity's items that hold an older one. Whatever
 * order or concurrency changes arrive in, every item ends with the newest access seen.
 */
export class TrailStore {
  readonly items: Collection<StoredTrailItem>;
  readonly entities: Collection<TrailEntityRecord>;
  private readonly purged: PurgedProjects;
  private readonly forgottenAuthors: Collection<{ id: string; userId: string }>;

  constructor(private readonly store: DocumentStore) {
    ({ items: this.items, entities: this.entities } = trailCollections(store));
    this.purged = new PurgedProjects(store);
    this.forgottenAuthors = store.collection(FORGOTTEN_AUTHORS_COLLECTION);
  }

  /** Erases a purged project's trail: its items and its entities' access records. Nothing of it is recorded from then on. */
  async eraseProject(projectId: string): Promise<{ items: number; entities: number }> {
    this.purged.erasing(projectId);
    return { items: await this.items.deleteMany({ projectId }), entities: await this.entities.deleteMany({ projectId }) };
  }

  /**
   * A deleted account's display name leaves every item it wrote: the items name the author by id,
   * as they show a private name. Without an index of its own (one more on every trail write for a
   * rare erasure): on MongoDB a collection scan, in the background consumer.
   */
  async forgetAuthorName(userId: string): Promise<{ items: number }> {
    // Marked before the scan: an item the scan passed because it was written meanwhile, with the
    // name read before the account went, finds the mark once written (forgetNameIfAccountDeleted).
    await this.forgottenAuthors.updateOne({ id: userId }, { $set: { userId } }, { upsert: true });
    return { items: await this.items.updateMany({ userId, userDisplayName: { $ne: userId } }, { $set: { userDisplayName: userId } }) };
  }

  /** An item just written with its author's name, whose account was deleted meanwhile, loses the name. */
  private async forgetNameIfAccountDeleted(entry: TrailEntry): Promise<void> {
    if (entry.userDisplayName === entry.userId) return;
    if (await this.forgottenAuthors.findById(entry.userId)) await this.items.updateOne({ id: entry.id }, { $set: { userDisplayName: entry.userId } });
  }

  /**
   * Removes the items written before `cutoff` (Unix ms), across projects; answers how many. The
   * entities' access records stay: they describe the entities as they are.
   */
  removeBefore(cutoff: number): Promise<number> {
    return this.items.deleteMany({ timestamp: { $lt: cutoff } });
  }

  /** The index the retention job's removal reads by: only where retention is on, since it costs every trail write. */
  async ensureRetentionIndex(): Promise<void> {
    await this.items.ensureIndex({ keys: { timestamp: 1 } });
  }

  /**
   * One index per filter the route offers, each ending in the page order, so a filtered page at a
   * million items reads only its own rows; plus the access-update path and the rebuild's delete.
   */
  async ensureIndexes(): Promise<void> {
    await Promise.all([
      this.items.ensureIndex({ keys: { projectId: 1, ...TRAIL_ORDER } }),
      this.items.ensureIndex({ keys: { projectId: 1, userId: 1, ...TRAIL_ORDER } }),
      this.items.ensureIndex({ keys: { projectId: 1, entityTypeId: 1, ...TRAIL_ORDER } }),
      this.items.ensureIndex({ keys: { projectId: 1, changeType: 1, ...TRAIL_ORDER } }),
      this.items.ensureIndex({ keys: { entityKey: 1, accessRevision: 1 } }),
      this.entities.ensureIndex({ keys: { projectId: 1 } }),
    ]);
  }

  /**
   * Stores one change (a repeat of the same change is a no-op; none of a purged project) and
   * brings the entity's items up to date. Older items get the new access before the new item appears, so a reader never sees
   * a change whose earlier changes still follow the old access.
   */
  /** `traceContext`: the event's trace (its consumer span), which the section joins as a store span. */
  async record(entry: TrailEntry, snapshot: AccessSnapshot, traceContext?: TraceContext): Promise<void> {
    if (await this.purged.has(entry.projectId)) return;
    // The entity record, the access spread and the item: one atomic section (embedded store).
    await inStoreWriteSpan(traceContext, this.store, 'insertOne', TRAIL_COLLECTION, () => this.store.atomically((section) => this.recordIn(trailCollections(section), entry, snapshot)));
    await this.forgetNameIfAccountDeleted(entry);
  }

  private async recordIn(trail: TrailCollections, entry: TrailEntry, snapshot: AccessSnapshot): Promise<void> {
    const { record: known, accessMoved } = await this.advanceEntity(trail.entities, entry.entityKey, entry.projectId, snapshot);
    // Items written before hold the record's access already unless this change moved it.
    if (accessMoved) await this.spreadAccess(trail.items, entry.entityKey, known);
    let erasedRevision = known.erasedRevision;
    if (isRetentionErasure(entry)) {
      // The record is marked before its items are cleared, and an item inserted meanwhile reads
      // the record after its insert (below): either way no earlier item keeps a title.
      erasedRevision = await this.markErased(trail.entities, entry.entityKey, entry.revision);
      await this.forgetErasedContent(trail.items, entry, erasedRevision);
    }
    try {
      await trail.items.insertOne({ ...entry, ...erasedFields(entry, erasedRevision), access: known.access, accessRevision: known.accessRevision });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    // A newer change may have moved the record while this item was being inserted.
    const latest = (await trail.entities.findById(entry.entityKey)) as TrailEntityRecord;
    if (latest.accessRevision !== known.accessRevision) await this.spreadAccess(trail.items, entry.entityKey, latest);
    if (latest.erasedRevision !== undefined && latest.erasedRevision !== erasedRevision && entry.revision < latest.erasedRevision) {
      await this.forgetErasedContent(trail.items, entry, latest.erasedRevision);
    }
  }

  /**
   * Marks erased every entity whose retention erasure an earlier version recorded without doing
   * so (before 2026-12-07 the trail stored the erasure's item alone), and gives its earlier items
   * the entity id as title, as recording an erasure does now; entities marked already are left
   * alone. Answers how many it marked.
   */
  async markEarlierErasures(): Promise<number> {
    let marked = 0;
    for await (const erasures of this.batches({ userId: RETENTION_USER_ID, changeType: 'deleted' })) {
      for (const erasure of erasures) {
        const known = await this.entities.findById(erasure.entityKey);
        if (known?.erasedRevision !== undefined && known.erasedRevision >= erasure.revision) continue;
        await this.store.atomically(async (section) => {
          const trail = trailCollections(section);
          const erasedRevision = known ? await this.markErased(trail.entities, erasure.entityKey, erasure.revision) : erasure.revision;
          await this.forgetErasedContent(trail.items, erasure, erasedRevision);
        });
        marked += 1;
      }
    }
    return marked;
  }

  /** Marks the entity erased at `revision` (a later erasure's revision stays); answers the revision it holds now. */
  private async markErased(entities: Collection<TrailEntityRecord>, entityKey: string, revision: number): Promise<number> {
    await entities.updateOne({ id: entityKey, $or: [{ erasedRevision: { $exists: false } }, { erasedRevision: { $lt: revision } }] }, { $set: { erasedRevision: revision } });
    const record = (await entities.findById(entityKey)) as TrailEntityRecord;
    return record.erasedRevision ?? revision;
  }

  /**
   * Visitor retention erased the entity's content (its fields and its earlier history), so the
   * entity's items before the erasure lose what they took from it: the title becomes the entity id.
   * An item holds nothing else of the content (its description is a message key). Repeating it
   * changes nothing.
   */
  private async forgetErasedContent(items: Collection<StoredTrailItem>, entry: Pick<TrailEntry, 'entityKey' | 'entityId'>, erasedRevision: number): Promise<void> {
    await items.updateMany({ entityKey: entry.entityKey, revision: { $lt: erasedRevision }, erased: { $ne: true } }, { $set: { entityTitle: entry.entityId, erased: true } });
  }

  /**
   * Moves the entity record to this snapshot if it is newer (compare-and-set on the revision);
   * answers the record as it now stands and whether its access may be newer than some items'.
   */
  private async advanceEntity(
    entities: Collection<TrailEntityRecord>,
    entityKey: string,
    projectId: string,
    snapshot: AccessSnapshot,
  ): Promise<{ record: TrailEntityRecord; accessMoved: boolean }> {
    const access = snapshot.access ?? {};
    for (;;) {
      const current = await entities.findById(entityKey);
      // A redelivery or a late older change: the call that moved the access may have stopped
      // before spreading it, so this one spreads too.
      if (current && current.revision >= snapshot.revision) return { record: current, accessMoved: true };
      const accessRevision = current && sameAccess(current.access, access) ? current.accessRevision : snapshot.revision;
      if (!current) {
        const record = { id: entityKey, projectId, revision: snapshot.revision, access, accessRevision };
        try {
          await entities.insertOne(record);
          return { record, accessMoved: false };
        } catch (error) {
          if (!(error instanceof DuplicateKeyError)) throw error;
          continue;
        }
      }
      const moved = await entities.updateOne({ id: entityKey, revision: current.revision }, { $set: { revision: snapshot.revision, access, accessRevision } });
      if (moved) return { record: moved, accessMoved: moved.accessRevision !== current.accessRevision };
    }
  }

  private async spreadAccess(items: Collection<StoredTrailItem>, entityKey: string, record: TrailEntityRecord): Promise<void> {
    await items.updateMany({ entityKey, accessRevision: { $lt: record.accessRevision } }, { $set: { access: record.access, accessRevision: record.accessRevision } });
  }

  async page(filter: Filter, skip: number, limit: number): Promise<{ items: StoredTrailItem[]; total: number }> {
    const [items, total] = await Promise.all([this.items.find(filter, { sort: TRAIL_ORDER, skip, limit }), this.items.count(filter)]);
    return { items, total };
  }

  /**
   * Every item `filter` selects, in page order, a batch at a time. Each batch starts after the
   * last one's (timestamp, id) rather than skipping the ones before, so the millionth item costs
   * what the first does (the page indexes end in TRAIL_ORDER).
   */
  async *batches(filter: Filter, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<StoredTrailItem[]> {
    let after: Filter | undefined;
    for (;;) {
      const batch = await this.items.find(after ? { $and: [filter, after] } : filter, { sort: TRAIL_ORDER, limit: batchSize });
      if (batch.length > 0) yield batch;
      if (batch.length < batchSize) return;
      const last = batch[batch.length - 1]!;
      after = { $or: [{ timestamp: { $lt: last.timestamp } }, { timestamp: last.timestamp, id: { $lt: last.id } }] };
    }
  }

  /**
   * Stores one change of a record every member may list, or whose readers the query decides
   * (memberships: the project's read rule, readable-trail-filter.ts): its access is `{}`. A repeat
   * of the same change is a no-op, and so is a change of a purged project.
   */
  async recordProjectRecordChange(entry: TrailEntry): Promise<void> {
    if (await this.purged.has(entry.projectId)) return;
    try {
      await this.items.insertOne({ ...entry, access: {}, accessRevision: 0 });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    await this.forgetNameIfAccountDeleted(entry);
  }

  /**
   * Removes the part of a project's trail a rebuild replays from the entities' histories: all but
   * the items of the project's own records (memberships, actions), which have no history to be
   * rebuilt from, and those records' access. Kept too: the items an entity had before visitor
   * retention erased it (`erased`, title already the entity id), since the erasure deleted the
   * history they came from, and those entities' records, which say where the erasure was.
   */
  async clearProject(projectId: string): Promise<void> {
    await this.store.atomically(async (section) => {
      const { items, entities } = trailCollections(section);
      await items.deleteMany({ projectId, entityTypeId: { $nin: [...PROJECT_RECORD_TYPE_IDS] }, erased: { $ne: true } });
      const kept = new Set((await items.find({ projectId, erased: { $ne: true } }, { projection: { entityKey: 1 } })).map((item) => item.entityKey));
      await entities.deleteMany({ projectId, id: { $nin: [...kept] }, erasedRevision: { $exists: false } });
    });
  }
}

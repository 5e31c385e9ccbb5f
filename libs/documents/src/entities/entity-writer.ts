import { randomUUID } from 'node:crypto';
import type { Access } from '@platform/contracts';
import { rlsAllows, type ProjectCaller } from '@platform/kit';
import { DuplicateKeyError, guardedUpdate, replayUpdates, type DocumentStore, type StoreSection, type UpdateModifier } from '@platform/storage';
import { inStoreWriteSpan, type TraceContext } from '@platform/telemetry';
import { conflictDetails, omittedConflictDetails, type ConflictDetailsGate } from '../domain/conflict';
import { accessFieldsOf, scopeAccessFields, scopeAccessModifier, unscopableAccessPaths } from '../domain/scoped-access';
import { documentError } from '../errors';
import { storeChange, type ActionCause, type EntityScope, type OutboxEntry, type StoredEntity } from './entity';
import type { History } from './history';
import type { OutboxDrainer } from './outbox';
import type { PullWatermarks } from './pull-watermarks';
import type { UpdatedAtClock } from './updated-at-clock';

/**
 * Writes of other collections that belong to an entity write (a visitor's retention entry, a
 * published version): run first, through `section`, the entity write's atomic section, so on the
 * embedded store they reach the disk with the entity or not at all. On MongoDB they simply go
 * first. One that throws stops the entity write; they land even when the entity write then fails
 * (a conflict, a duplicate id).
 */
export type PrecedingWrites = (section: StoreSection) => Promise<void>;

/** How often a slow write is restamped at most (see settle). */
const MAX_RESTAMPS = 3;

/**
 * Every write to an entity collection: create, patch and soft delete. Each is one atomic store
 * section: the entity with the change in its outbox, and the change's history record (so after a
 * crash no entity lacks the history of its revision; on MongoDB the history insert follows, and
 * the drain repeats it if it is missing). The drain then publishes the event and empties the
 * outbox. A write is acknowledged once the store has it, whatever the bus does. Given the caller's
 * `traceContext`, the atomic section is a store span and the drain an outbox span of that trace.
 */
export class EntityWriter {
  constructor(
    private readonly store: DocumentStore,
    private readonly history: History,
    private readonly drainer: OutboxDrainer,
    private readonly timestamps: UpdatedAtClock,
    /** Only with a store shared by several processes. */
    private readonly watermarks?: PullWatermarks,
  ) {}

  async create(scope: EntityScope, fields: Record<string, unknown>, options: { userId: string; id?: string; defaultAccess?: Access; preceding?: PrecedingWrites; traceContext?: TraceContext; reader?: ProjectCaller }): Promise<StoredEntity> {
    await this.drainer.register(scope);
    const id = options.id ?? randomUUID();
    // Every write of an access rule stores plain permission names scoped to the project.
    const initial = scopeAccessFields(
      scope.projectId,
      { ...fields, ...(fields.access === undefined && options.defaultAccess ? { access: options.defaultAccess } : {}) },
      accessFieldsOf(scope.typeId),
    );
    const stamp = this.timestamps.begin();
    const change: OutboxEntry = { userId: options.userId, timestamp: stamp.at, baseRevision: -1, modifier: { $set: initial }, revision: 0 };
    const entity: StoredEntity = { ...initial, id, revision: 0, createdAt: stamp.at, updatedAt: stamp.at, _outbox: [storeChange(change)] };
    let idTaken = false;
    try {
      await inStoreWriteSpan(options.traceContext, this.store, 'insertOne', scope.collection, () =>
        this.store.atomically(async (section) => {
          await options.preceding?.(section);
          await section
            .collection<StoredEntity>(scope.collection)
            .insertOne(entity)
            .catch((error: unknown) => {
              idTaken = error instanceof DuplicateKeyError;
              throw error;
            });
          await this.history.append(scope.collection, id, change, section);
        }),
      );
    } catch (error) {
      if (!idTaken) throw error;
    } finally {
      stamp.end();
    }
    // Read once the write is over: what holds the id decides the answer.
    if (idTaken) throw await this.duplicateIdError(scope, id, options.reader);
    const stored = await this.settle(scope, entity, stamp.at);
    await this.drainer.drain(scope, stored, { inHistory: change.revision, traceContext: options.traceContext });
    return stored;
  }

  /**
   * The 409 for an id already taken. A deleted entity keeps its id for good (its history and
   * tombstone stay), so that answer says so, to a `reader` who may read it: re-creating a deleted
   * id is not a retry that will pass. Others learn only that the id is taken.
   */
  private async duplicateIdError(scope: EntityScope, id: string, reader: ProjectCaller | undefined): Promise<Error> {
    const existing = await this.store.collection<StoredEntity>(scope.collection).findOne({ id }, { projection: { deletedAt: 1, access: 1 } });
    const hidden = reader !== undefined && existing !== null && !rlsAllows(existing.access, 'read', reader);
    if (existing?.deletedAt === undefined || hidden) return documentError('DATA_DUPLICATE_ID', { message: `An entity with id ${id} already exists`, details: { id } });
    return documentError('DATA_DUPLICATE_ID', {
      message: `The entity with id ${id} was deleted; a deleted entity's id is not reused: create it under another id`,
      details: { id, deleted: true },
    });
  }

  /**
   * Applies a modifier if the stored revision is `baseRevision`; 409 with conflict details if not
   * (see `conflict`: `reader` is whom they are for, `mayExplain` whether they may be computed).
   * Permission names it writes into access rules are scoped to the project (400 for operators that
   * could store them otherwise).
   */
  async patch(
    scope: EntityScope,
    id: string,
    given: UpdateModifier,
    options: { userId: string; baseRevision: number; preceding?: PrecedingWrites; traceContext?: TraceContext; reader?: ProjectCaller; actionCause?: ActionCause; mayExplain?: ConflictDetailsGate },
  ): Promise<StoredEntity> {
    const accessFields = accessFieldsOf(scope.typeId);
    const unscopable = unscopableAccessPaths(given, accessFields);
    if (unscopable.length) {
      const first = unscopable[0] as { path: string; message: string };
      throw documentError('DATA_INVALID_MODIFIER', { message: `Invalid ${first.path}: ${first.message}`, details: { problems: unscopable } });
    }
    const modifier = scopeAccessModifier(scope.projectId, given, accessFields);
    await this.drainer.register(scope);
    // The last write's outbox pull may still be under way: two writes of one document must not overlap.
    await this.drainer.pulled(scope.collection, id);
    const stamp = this.timestamps.begin();
    const change: OutboxEntry = {
      userId: options.userId,
      timestamp: stamp.at,
      baseRevision: options.baseRevision,
      modifier,
      revision: options.baseRevision + 1,
      // A write made by an action: its event says how deep in which chain of actions it is (docs/actions.md, Loop guard).
      ...options.actionCause,
    };
    let result;
    try {
      result = await inStoreWriteSpan(options.traceContext, this.store, 'updateOne', scope.collection, () =>
        this.store.atomically(async (section) => {
          await options.preceding?.(section);
          const updated = await guardedUpdate(section.collection<StoredEntity>(scope.collection), { id, expectedRevision: options.baseRevision, modifier, change: { ...storeChange(change) }, now: stamp.at });
          if (updated.status === 'updated') await this.history.append(scope.collection, id, change, section);
          return updated;
        }),
      );
    } finally {
      stamp.end();
    }
    if (result.status === 'not-found') throw documentError('DATA_ENTITY_NOT_FOUND');
    if (result.status === 'conflict') throw await this.conflict(scope, result.current as StoredEntity, modifier, options.baseRevision, options.reader, options.mayExplain);
    const stored = await this.settle(scope, result.document as StoredEntity, stamp.at);
    await this.drainer.drain(scope, stored, { inHistory: change.revision, traceContext: options.traceContext });
    return stored;
  }

  /**
   * With a shared store, makes sure no pull steps past the write for good. A write that a pull has
   * already read past (its stamp is at or below the collection's pull watermark) gets a stamp above
   * the mark, as often as it takes: each time, another pull must have passed it again, which needs
   * the restamp itself to take longer than the whole settle margin (or a replica's clock to run
   * that far ahead). A write that took longer than half the margin is restamped too (see
   * UpdatedAtClock), at most MAX_RESTAMPS times: on a store so overloaded that every write takes
   * over half the margin, an unbounded loop never answered (PATCH stalled under load on the test
   * server). That second rule is what holds where single-document updates are not atomic (FerretDB
   * without the test server's write lock: the benchmarks' PostgreSQL stand-in, docs/ports.md), so
   * the mark may lag.
   */
  private async settle(scope: EntityScope, entity: StoredEntity, stampedAt: number): Promise<StoredEntity> {
    if (this.timestamps.settleMs === 0) return entity;
    let current = entity;
    let stamp = stampedAt;
    for (let slowRestamps = 0; ; ) {
      const mark = (await this.watermarks?.of(scope.collection)) ?? -1;
      const passed = stamp <= mark;
      const slow = this.timestamps.now() - stamp > this.timestamps.settleMs / 2;
      if (!passed && !(slow && slowRestamps < MAX_RESTAMPS)) return current;
      if (!passed) slowRestamps += 1;
      const fresh = this.timestamps.begin(mark + 1);
      try {
        const touched = await this.store.collection<StoredEntity>(scope.collection).updateOne({ id: current.id, updatedAt: stamp }, { $set: { updatedAt: fresh.at } });
        // A later write stamped it since: that write settles itself.
        if (!touched) return current;
        current = touched;
        stamp = fresh.at;
      } finally {
        fresh.end();
      }
    }
  }

  /**
   * Soft delete: `deletedAt`, a revision and a change, like any other write; 409 when `entity` is no
   * longer the stored revision (its details only for a `reader` who may still read it).
   */
  async remove(scope: EntityScope, entity: StoredEntity, userId: string, options: { traceContext?: TraceContext; reader?: ProjectCaller } = {}): Promise<StoredEntity> {
    return this.patch(scope, entity.id, { $set: { deletedAt: this.timestamps.now() } }, { userId, baseRevision: entity.revision, ...options });
  }

  /**
   * The 409 for a modifier sent with `baseRevision` against `current`: conflict details, or that the
   * revision does not exist. The details hold the entity and its changes, so a `reader` who may no
   * longer read it (a write in between took their access) gets the 404 of an entity they cannot
   * read. A modifier that cannot apply to the base at all is a 400, as it would be on the current
   * revision: no rebase makes it valid. The details read and replay the entity's history (its
   * kept changes when the process has them), so `mayExplain` is asked first; when it declines,
   * the 409 says only that they were omitted.
   */
  async conflict(scope: EntityScope, current: StoredEntity, modifier: UpdateModifier, baseRevision: number, reader?: ProjectCaller, mayExplain: ConflictDetailsGate = () => true) {
    if (reader !== undefined && !rlsAllows(current.access, 'read', reader)) return documentError('DATA_ENTITY_NOT_FOUND');
    if (baseRevision > current.revision || baseRevision < 0) {
      return documentError('DATA_REVISION_CONFLICT', { details: { baseRevision, currentRevision: current.revision, reason: 'baseRevision does not exist' } });
    }
    if (!mayExplain(current.revision + 1)) return documentError('DATA_REVISION_CONFLICT', { details: omittedConflictDetails(baseRevision, current.revision) });
    // A change's baseRevision is the revision before it: those below the base made it, the others came since.
    const changes = await this.history.changes(scope.collection, current);
    const base = { ...replayUpdates(changes.filter((change) => change.baseRevision < baseRevision).map((change) => change.modifier as UpdateModifier)), revision: baseRevision };
    const changesSince = changes.filter((change) => change.baseRevision >= baseRevision);
    const { _outbox, ...visible } = current;
    try {
      return documentError('DATA_REVISION_CONFLICT', { details: conflictDetails({ base, current: visible, baseRevision, changesSince, modifier }) });
    } catch (error) {
      const problem = { path: 'modifier', message: (error as Error).message };
      return documentError('DATA_INVALID_MODIFIER', { message: `Invalid modifier: ${problem.message}`, details: { problems: [problem] } });
    }
  }
}

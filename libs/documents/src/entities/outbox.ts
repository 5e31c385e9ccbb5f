import { INVALID_SPAN_CONTEXT, trace, type Span } from '@opentelemetry/api';
import { documentEventId, documentEventSubject, type ChangeKind, type DocumentEvent } from '@platform/contracts';
import type { EventBus } from '@platform/bus';
import type { Logger } from '@platform/kit';
import { outboxBacklog, startChildSpan, traceLogFields, tracingStarted, type TraceContext } from '@platform/telemetry';
import { DuplicateKeyError, type DocumentStore, type StoredDocument } from '@platform/storage';
import type { ConsumedPulls } from './consumed-pulls';
import { loadChange, publicView, type EntityScope, type OutboxEntry, type StoredChange, type StoredEntity } from './entity';
import type { History } from './history';
import { PAGE_READ_BYTES } from '../domain/page-budget';

const REGISTRY = 'outbox-collections';

/** Documents with outbox entries a sweep reads at a time. */
const SWEEP_PAGE = 500;

/**
 * With consumed pulls (the all-in-one), how often a sweep still reads every registered collection.
 * In between it visits only the entities this process let go of unpublished (stranded): nothing
 * else can leave an entry behind while the process runs, and the start's sweep reads everything.
 * A sweep that read every collection every 5 s cost a scan of every document each time, which
 * grows with the store (at 300,000 documents, idle, 1.6 s of CPU every 30 s and answers held up to
 * 370 ms), and one page of such a scan per 500 entities waiting for a lagging consumer: under a
 * sustained bulk load the sweeps took the CPU from the consumers they waited for.
 */
export const FULL_SWEEP_EVERY_MS = 10 * 60_000;

/**
 * The entities holding outbox entries, said so that MongoDB reads them from the `_outbox.revision`
 * index (`register` makes it): a revision is a number from 0, so the bounds are [0, ∞) and an
 * entity without entries (no `_outbox`, or an empty one: indexed as null) is never visited.
 * `{ '_outbox.0': { $exists: true } }`, the same documents, names a path no index holds, so every
 * sweep (every 5 s on every data replica) read every document of every collection.
 */
export const HOLDS_OUTBOX_ENTRIES = { '_outbox.revision': { $gte: 0 } } as const;

const tracer = trace.getTracer('data');

/** A drain's span and the context that holds it (none while untraced), for the publishes it makes. */
interface DrainSpan {
  span: Span;
  context: TraceContext | undefined;
}

/** The drain's span while no tracer provider is registered: what it is told goes nowhere, as with any no-op span, but none is made per write. */
const UNTRACED: DrainSpan = { span: trace.wrapSpanContext(INVALID_SPAN_CONTEXT), context: undefined };

interface RegistryRecord extends StoredDocument {
  projectId: string;
  typeId: string;
}

function pullKey(collection: string, entityId: string): string {
  return `${collection}/${entityId}`;
}

export function changeKindOf(entry: OutboxEntry): ChangeKind {
  if (entry.revision === 0) return 'created';
  return entry.modifier.$set && 'deletedAt' in entry.modifier.$set ? 'deleted' : 'updated';
}

/** The event a change of `entity` publishes: `platform.docs.<projectId>.<typeId>.<kind>`, with the entity after it. */
export function documentEvent(scope: EntityScope, entity: StoredEntity, entry: OutboxEntry): DocumentEvent {
  return {
    projectId: scope.projectId,
    typeId: scope.typeId,
    collection: scope.collection,
    kind: changeKindOf(entry),
    entityId: entity.id,
    revision: entry.revision,
    change: { userId: entry.userId, timestamp: entry.timestamp, baseRevision: entry.baseRevision, modifier: entry.modifier },
    ...(entry.actionDepth === undefined ? {} : { actionDepth: entry.actionDepth }),
    ...(entry.actionChain === undefined ? {} : { actionChain: entry.actionChain }),
    entity: publicView(entity),
  };
}

/**
 * Moves changes out of an entity's outbox: append to history, publish the event (message id
 * `<collection>/<id>/<revision>`, so a repeat is dropped by the bus), then pull the entry. Each
 * step is idempotent, so a drain interrupted anywhere (crash, bus down) is simply done again later
 * by the sweeper, and no change is ever lost or published twice to a consumer. Given
 * `consumedPulls` (the all-in-one), an entry is pulled only once the event's consumers have
 * handled it (see ConsumedPulls); otherwise right after the publish.
 */
export class OutboxDrainer {
  private readonly registered = new Set<string>();
  /** Outbox pulls under way, by entity (`collection/id`); one entity's pulls run one after another. */
  private readonly pulls = new Map<string, Promise<void>>();
  private sweeper: NodeJS.Timeout | undefined;
  /** The periodic sweep under way, if any. */
  private sweeping: Promise<unknown> | undefined;
  /**
   * With consumed pulls: entities holding entries this process let go of unpublished (the bus
   * refused them, their pull failed), by `collection/id`, for the next sweep.
   */
  private readonly stranded = new Map<string, { collection: string; id: string }>();
  /** When a sweep last read every registered collection (with consumed pulls; never: the next one does). */
  private fullSweepAt: number | undefined;

  constructor(
    private readonly store: DocumentStore,
    private readonly bus: EventBus,
    private readonly history: History,
    private readonly clock: () => number,
    private readonly logger: Logger,
    private readonly consumedPulls?: ConsumedPulls,
  ) {
    consumedPulls?.onPullFailed((collection, entityId) => this.strand(collection, entityId));
  }

  /** Records that a collection may hold outbox entries, once per process, so the sweeper finds it. */
  async register(scope: EntityScope): Promise<void> {
    if (this.registered.has(scope.collection)) return;
    const registry = this.store.collection<RegistryRecord>(REGISTRY);
    const record = { $set: { projectId: scope.projectId, typeId: scope.typeId } };
    try {
      await registry.updateOne({ id: scope.collection }, record, { upsert: true });
    } catch (error) {
      // Two first writes racing: MongoDB lets only one upsert insert; the other finds the record now.
      if (!(error instanceof DuplicateKeyError)) throw error;
      await registry.updateOne({ id: scope.collection }, record);
    }
    await this.store.collection(scope.collection).ensureIndex({ keys: { '_outbox.revision': 1 } });
    this.registered.add(scope.collection);
  }

  /**
   * Drains one entity; answers false when publishing failed (the entry stays for the sweeper). A
   * span of the writer's trace (`traceContext`; the sweeper's drains start their own), so each
   * event published carries it to the consumers. `inHistory` names the revision whose history
   * record the writer stored with the entity itself.
   */
  async drain(scope: EntityScope, entity: StoredEntity, options: { inHistory?: number; traceContext?: TraceContext } = {}): Promise<boolean> {
    if (!tracingStarted()) return this.drainEntries(scope, entity, options.inHistory, UNTRACED);
    const drainSpan = startChildSpan(tracer, 'outbox drain', { attributes: { 'platform.outbox.entries': entity._outbox?.length ?? 0 } }, options.traceContext);
    try {
      return await this.drainEntries(scope, entity, options.inHistory, drainSpan);
    } finally {
      drainSpan.span.end();
    }
  }

  private async drainEntries(scope: EntityScope, entity: StoredEntity, inHistory: number | undefined, drainSpan: DrainSpan): Promise<boolean> {
    const entries = this.ownEntries(scope, entity, inHistory)
      .map((stored) => ({ stored, entry: loadChange(stored) }))
      .sort((a, b) => a.entry.revision - b.entry.revision);
    for (const { entry } of entries) this.consumedPulls?.claim(scope.collection, entity.id, entry.revision);
    let published = 0;
    try {
      for (const { stored, entry } of entries) {
        if (!(await this.publishEntry(scope, entity, stored, entry, inHistory, drainSpan))) return false;
        published += 1;
      }
      return true;
    } finally {
      for (const { entry } of entries.slice(published)) this.consumedPulls?.release(scope.collection, entity.id, entry.revision);
      if (published < entries.length) this.strand(scope.collection, entity.id);
    }
  }

  /** With consumed pulls, the next sweep visits the entity (its entries are no longer this process's to finish). */
  private strand(collection: string, id: string): void {
    if (this.consumedPulls) this.stranded.set(pullKey(collection, id), { collection, id });
  }

  /**
   * The entries this drain publishes. With consumed pulls, a write drains only its own change: the
   * older entries it read are this process's, waiting for their consumers, or (a refused publish,
   * an entry pulled while the write reached the disk) the sweeper's.
   */
  private ownEntries(scope: EntityScope, entity: StoredEntity, inHistory: number | undefined): StoredChange[] {
    const outbox = entity._outbox ?? [];
    const pulls = this.consumedPulls;
    if (!pulls) return outbox;
    return outbox.filter((stored) => (inHistory === undefined || stored.revision === inHistory) && !pulls.owns(scope.collection, entity.id, stored.revision));
  }

  /** One entry: history if the writer did not store it, the event, then its pull; false when the bus refused it. */
  private async publishEntry(scope: EntityScope, entity: StoredEntity, stored: StoredChange, entry: OutboxEntry, inHistory: number | undefined, { span, context }: DrainSpan): Promise<boolean> {
    if (entry.revision !== inHistory) await this.history.append(scope.collection, entity.id, entry);
    const event = documentEvent(scope, entity, entry);
    const { kind } = event;
    let handled: Promise<void> | undefined;
    try {
      ({ handled } = await this.bus.publish(documentEventSubject(scope.projectId, scope.typeId, kind), event, { msgId: documentEventId(scope.collection, entity.id, entry.revision), traceContext: context }));
    } catch (error) {
      this.logger.warn({ err: error, collection: scope.collection, id: entity.id, revision: entry.revision, ...traceLogFields(context) }, 'event not published yet; the outbox keeps it');
      return false;
    }
    // An event, not a span of its own: the pull lands after the answer and a reader of the
    // trace learns nothing more from its timing; one span fewer per write (docs/observability.md, Overhead).
    span.addEvent('outbox pull started', { 'platform.outbox.revision': entry.revision });
    const pulls = this.consumedPulls;
    if (pulls) pulls.published(scope.collection, entity.id, stored, handled);
    else this.pullInBackground(scope, entity.id, stored);
    return true;
  }

  /**
   * The write was acknowledged before its event went out, and an entry whose pull is lost (a
   * crash, a store error) is only published again by the sweeper under the same message id, so
   * the write's answer does not wait for the pull to reach the disk. The entity's next write does
   * (see pulled): a pull is a write of the same document.
   */
  private pullInBackground(scope: EntityScope, entityId: string, stored: StoredChange): void {
    const key = pullKey(scope.collection, entityId);
    // The whole entry as stored: a pull by equality, which every adapter and MongoDB-compatible
    // server implements (FerretDB ignores a $pull condition on a sub-field, see docs/ports.md).
    const pull = () =>
      this.store
        .collection(scope.collection)
        .updateOne({ id: entityId }, { $pull: { _outbox: stored } })
        .then(
          () => undefined,
          (error: unknown) => this.logger.warn({ err: error, collection: scope.collection, id: entityId }, 'outbox entry not removed yet; the sweeper retries it'),
        );
    const previous = this.pulls.get(key);
    const tracked = previous ? previous.then(pull) : pull();
    this.pulls.set(key, tracked);
    void tracked.finally(() => this.pulls.get(key) === tracked && this.pulls.delete(key));
  }

  /**
   * Resolves once the outbox pulls under way on this entity have landed. A writer waits for them
   * before it writes the entity again: where a store updates a document by reading and replacing
   * it (FerretDB without the test server's write lock: the benchmarks' PostgreSQL stand-in,
   * docs/ports.md), a pull overlapping the next write wrote the document back as it read it, and
   * the write's revision was lost.
   */
  async pulled(collection: string, entityId: string): Promise<void> {
    await this.pulls.get(pullKey(collection, entityId));
  }

  /** Resolves once every outbox pull under way or ready has landed (before the store closes). */
  async settled(): Promise<void> {
    while (this.pulls.size > 0) await Promise.all(this.pulls.values());
    await this.consumedPulls?.settled();
  }

  /** Every entity collection any process has written to (of one project, given `projectId`). */
  async registeredScopes(projectId?: string): Promise<EntityScope[]> {
    const registry = await this.store.collection<RegistryRecord>(REGISTRY).find(projectId === undefined ? {} : { projectId });
    return registry.map((record) => ({ projectId: record.projectId, typeId: record.typeId, collection: record.id }));
  }

  /** Forgets a purged project's collections: the sweeper stops reading them. */
  async unregisterProject(projectId: string): Promise<void> {
    const registry = this.store.collection<RegistryRecord>(REGISTRY);
    for (const record of await registry.find({ projectId }, { projection: { id: 1 } })) {
      this.registered.delete(record.id);
      for (const [key, { collection }] of this.stranded) if (collection === record.id) this.stranded.delete(key);
    }
    await registry.deleteMany({ projectId });
  }

  /**
   * Finishes every outbox entry older than `graceMs` in every registered collection, and sets the
   * backlog gauge to the documents that held entries when the sweep looked (with consumed pulls,
   * those whose events still wait for their consumers included). With consumed pulls, a sweep
   * within FULL_SWEEP_EVERY_MS of the last one that read everything visits only the stranded
   * entities, and the gauge counts them with the entities whose events wait for their consumers.
   */
  async sweep(graceMs = 2_000): Promise<number> {
    if (this.consumedPulls && this.fullSweepAt !== undefined && this.clock() - this.fullSweepAt < FULL_SWEEP_EVERY_MS) return this.sweepStranded(this.consumedPulls);
    if (this.consumedPulls) this.fullSweepAt = this.clock();
    let drained = 0;
    let backlog = 0;
    for (const scope of await this.registeredScopes()) {
      const collection = this.store.collection<StoredEntity>(scope.collection);
      backlog += await collection.count(HOLDS_OUTBOX_ENTRIES);
      const pending = { ...HOLDS_OUTBOX_ENTRIES, updatedAt: { $lt: this.clock() - graceMs } };
      if (!this.consumedPulls) {
        for (const entity of (await collection.findWithin(pending, { limit: SWEEP_PAGE }, PAGE_READ_BYTES)).documents) if (await this.drain(scope, entity)) drained += 1;
        continue;
      }
      // Page on: entries waiting for their consumers fill pages, and a start after a crash finds
      // every unconsumed change of the last moments to publish again.
      for (let after: string | undefined; ; ) {
        // Whole documents (an event carries its entity): a page stops at PAGE_READ_BYTES of them.
        const { documents: page, stoppedByBytes } = await collection.findWithin(after === undefined ? pending : { ...pending, id: { $gt: after } }, { limit: SWEEP_PAGE, sort: { id: 1 } }, PAGE_READ_BYTES);
        for (const entity of page) if (this.ownEntries(scope, entity, undefined).length > 0 && (await this.drain(scope, entity))) drained += 1;
        if (!stoppedByBytes && page.length < SWEEP_PAGE) break;
        after = (page[page.length - 1] as StoredEntity).id;
      }
    }
    outboxBacklog.set(backlog);
    return drained;
  }

  /** Publishes again what the stranded entities hold that no drain of this process has taken since. */
  private async sweepStranded(consumedPulls: ConsumedPulls): Promise<number> {
    let drained = 0;
    if (this.stranded.size > 0) {
      const scopes = new Map((await this.registeredScopes()).map((scope) => [scope.collection, scope]));
      for (const [key, { collection, id }] of [...this.stranded]) {
        this.stranded.delete(key);
        const scope = scopes.get(collection);
        const entity = scope && (await this.store.collection<StoredEntity>(collection).findById(id));
        // A drain that fails again strands the entity again.
        if (scope && entity && this.ownEntries(scope, entity, undefined).length > 0 && (await this.drain(scope, entity))) drained += 1;
      }
    }
    outboxBacklog.set(consumedPulls.entitiesWaiting + this.stranded.size);
    return drained;
  }

  /**
   * Sweeps every `intervalMs`, never two at once: a sweep that outlasts the interval (a lagging
   * consumer's backlog makes a full one page through every waiting entity) skips the ticks it
   * overlaps, where each tick used to start another, and they piled up on the event loop.
   */
  startSweeping(intervalMs = 5_000): void {
    this.sweeper = setInterval(() => {
      this.sweeping ??= this.sweep()
        .catch((error: unknown) => this.logger.warn({ err: error }, 'outbox sweep failed'))
        .finally(() => {
          this.sweeping = undefined;
        });
    }, intervalMs);
    this.sweeper.unref();
  }

  stopSweeping(): void {
    clearInterval(this.sweeper);
  }
}

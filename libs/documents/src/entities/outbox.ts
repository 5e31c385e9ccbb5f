import { context, ROOT_CONTEXT, trace, type Span } from '@opentelemetry/api';
import { documentEventId, documentEventSubject, type ChangeKind, type DocumentEvent } from '@platform/contracts';
import type { EventBus } from '@platform/bus';
import type { Logger } from '@platform/kit';
import { outboxBacklog } from '@platform/telemetry';
import { DuplicateKeyError, type DocumentStore, type StoredDocument } from '@platform/storage';
import { loadChange, publicView, type EntityScope, type OutboxEntry, type StoredChange, type StoredEntity } from './entity';
import type { History } from './history';

const REGISTRY = 'outbox-collections';

const tracer = trace.getTracer('data');

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

/**
 * Moves changes out of an entity's outbox: append to history, publish the event (message id
 * `<collection>/<id>/<revision>`, so a repeat is dropped by the bus), then pull the entry. Each
 * step is idempotent, so a drain interrupted anywhere (crash, bus down) is simply done again later
 * by the sweeper, and no change is ever lost or published twice to a consumer.
 */
export class OutboxDrainer {
  private readonly registered = new Set<string>();
  /** Outbox pulls under way, by entity (`collection/id`); one entity's pulls run one after another. */
  private readonly pulls = new Map<string, Promise<void>>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: DocumentStore,
    private readonly bus: EventBus,
    private readonly history: History,
    private readonly clock: () => number,
    private readonly logger: Logger,
  ) {}

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
   * span of the writer's trace, so each event published carries it to the consumers. `inHistory`
   * names the revision whose history record the writer stored with the entity itself.
   */
  async drain(scope: EntityScope, entity: StoredEntity, options: { inHistory?: number } = {}): Promise<boolean> {
    return tracer.startActiveSpan('outbox drain', { attributes: { 'platform.outbox.entries': entity._outbox?.length ?? 0 } }, async (span) => {
      try {
        return await this.drainEntries(scope, entity, options.inHistory, span);
      } finally {
        span.end();
      }
    });
  }

  private async drainEntries(scope: EntityScope, entity: StoredEntity, inHistory: number | undefined, span: Span): Promise<boolean> {
    const entries = (entity._outbox ?? []).map((stored) => ({ stored, entry: loadChange(stored) })).sort((a, b) => a.entry.revision - b.entry.revision);
    for (const { stored, entry } of entries) {
      if (entry.revision !== inHistory) await this.history.append(scope.collection, entity.id, entry);
      const kind = changeKindOf(entry);
      const event: DocumentEvent = {
        projectId: scope.projectId,
        typeId: scope.typeId,
        collection: scope.collection,
        kind,
        entityId: entity.id,
        revision: entry.revision,
        change: { userId: entry.userId, timestamp: entry.timestamp, baseRevision: entry.baseRevision, modifier: entry.modifier },
        entity: publicView(entity),
      };
      try {
        await this.bus.publish(documentEventSubject(scope.projectId, scope.typeId, kind), event, { msgId: documentEventId(scope.collection, entity.id, entry.revision) });
      } catch (error) {
        this.logger.warn({ err: error, collection: scope.collection, id: entity.id, revision: entry.revision }, 'event not published yet; the outbox keeps it');
        return false;
      }
      // An event, not a span of its own: the pull lands after the answer and a reader of the
      // trace learns nothing more from its timing; one span fewer per write (docs/observability.md, Overhead).
      span.addEvent('outbox pull started', { 'platform.outbox.revision': entry.revision });
      context.with(ROOT_CONTEXT, () => this.pullInBackground(scope, entity.id, stored));
    }
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
   * it (the MongoDB-compatible test server, docs/ports.md), a pull overlapping the next write
   * wrote the document back as it read it, and the write's revision was lost.
   */
  async pulled(collection: string, entityId: string): Promise<void> {
    await this.pulls.get(pullKey(collection, entityId));
  }

  /** Resolves once every outbox pull under way has landed (before the store closes). */
  async settled(): Promise<void> {
    while (this.pulls.size > 0) await Promise.all(this.pulls.values());
  }

  /** Every entity collection any process has written to. */
  async registeredScopes(): Promise<EntityScope[]> {
    const registry = await this.store.collection<RegistryRecord>(REGISTRY).find({});
    return registry.map((record) => ({ projectId: record.projectId, typeId: record.typeId, collection: record.id }));
  }

  /**
   * Finishes every outbox entry older than `graceMs` in every registered collection, and sets the
   * backlog gauge to the documents that held entries when the sweep looked.
   */
  async sweep(graceMs = 2_000): Promise<number> {
    let drained = 0;
    let backlog = 0;
    for (const scope of await this.registeredScopes()) {
      const collection = this.store.collection<StoredEntity>(scope.collection);
      backlog += await collection.count({ '_outbox.0': { $exists: true } });
      const pending = await collection.find({ '_outbox.0': { $exists: true }, updatedAt: { $lt: this.clock() - graceMs } }, { limit: 500 });
      for (const entity of pending) if (await this.drain(scope, entity)) drained += 1;
    }
    outboxBacklog.set(backlog);
    return drained;
  }

  startSweeping(intervalMs = 5_000): void {
    this.sweeper = setInterval(() => {
      this.sweep().catch((error: unknown) => this.logger.warn({ err: error }, 'outbox sweep failed'));
    }, intervalMs);
    this.sweeper.unref();
  }

  stopSweeping(): void {
    clearInterval(this.sweeper);
  }
}

import type { Logger } from '@platform/kit';
import type { DocumentStore } from '@platform/storage';
import type { StoredChange } from './entity';

/**
 * Changes of one entity waiting for their consumers before the outbox may lose them: a crash can
 * only lose what an outbox no longer holds. Past this many, the oldest are pulled unconsumed (as
 * every change was before), each entity write carrying them stays small, and a warning says so.
 */
export const MAX_UNCONSUMED_PER_ENTITY = 100;

/** One entity's changes that this process published and has not pulled yet, by revision. */
interface EntityPulls {
  publishing: Set<number>;
  /** Published; pulled once the bus says every consumer has handled the event. */
  unconsumed: Map<number, StoredChange>;
  pulling: Set<number>;
  /** Whether this lag was already reported (once until the entity's pulls are all done). */
  warned: boolean;
}

interface QueuedPull {
  collection: string;
  entityId: string;
  pulls: EntityPulls;
  stored: StoredChange;
}

/**
 * The outbox pulls of the all-in-one (embedded store, in-process bus): the bus keeps its messages
 * in memory only, so an entry is pulled once every consumer subscribed to its event has
 * acknowledged it, and a crash before that leaves it in the outbox for the next start's sweep.
 * The embedded store updates each document atomically, so a pull never has to be ordered with
 * the entity's next write (which therefore never waits for one). The pulls ready in one turn of
 * the event loop go to the store together.
 */
export class ConsumedPulls {
  private readonly entities = new Map<string, EntityPulls>();
  private queued: QueuedPull[] = [];
  private flushing: Promise<void> | undefined;
  private pullFailed: (collection: string, entityId: string) => void = () => undefined;

  constructor(
    private readonly store: DocumentStore,
    private readonly logger: Logger,
    private readonly maxUnconsumed = MAX_UNCONSUMED_PER_ENTITY,
  ) {}

  /** Told of an entity whose entry could not be pulled: it stays in the outbox, no longer this process's (the sweeper's). */
  onPullFailed(listener: (collection: string, entityId: string) => void): void {
    this.pullFailed = listener;
  }

  /** Entities with changes this process published and has not pulled yet (their events wait for consumers, or their pulls land). */
  get entitiesWaiting(): number {
    return this.entities.size;
  }

  /** Whether this process published the change and has not pulled it yet: a drain leaves it alone. */
  owns(collection: string, entityId: string, revision: number): boolean {
    const pulls = this.entities.get(entityKey(collection, entityId));
    return pulls !== undefined && (pulls.publishing.has(revision) || pulls.unconsumed.has(revision) || pulls.pulling.has(revision));
  }

  /** Taken before the drain's first await, so that a sweep meanwhile does not publish it too. */
  claim(collection: string, entityId: string, revision: number): void {
    const key = entityKey(collection, entityId);
    let pulls = this.entities.get(key);
    if (!pulls) {
      pulls = { publishing: new Set(), unconsumed: new Map(), pulling: new Set(), warned: false };
      this.entities.set(key, pulls);
    }
    pulls.publishing.add(revision);
  }

  /** Not published (the bus refused it): the sweeper's again. */
  release(collection: string, entityId: string, revision: number): void {
    const key = entityKey(collection, entityId);
    const pulls = this.entities.get(key);
    pulls?.publishing.delete(revision);
    this.forgetIfDone(key, pulls);
  }

  /**
   * The change's event is on the bus: pulled once `handled` resolves, or at once without it (a
   * duplicate of an event handled earlier, a bus that keeps messages itself).
   */
  published(collection: string, entityId: string, stored: StoredChange, handled: Promise<void> | undefined): void {
    const pulls = this.entities.get(entityKey(collection, entityId));
    if (!pulls) return;
    pulls.publishing.delete(stored.revision);
    if (!handled) return this.queue({ collection, entityId, pulls, stored });
    pulls.unconsumed.set(stored.revision, stored);
    void handled.then(() => {
      if (pulls.unconsumed.delete(stored.revision)) this.queue({ collection, entityId, pulls, stored });
    });
    if (pulls.unconsumed.size > this.maxUnconsumed) this.pullOldestUnconsumed(collection, entityId, pulls);
  }

  /** Resolves once every pull ready so far has landed (before the store closes). */
  async settled(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private pullOldestUnconsumed(collection: string, entityId: string, pulls: EntityPulls): void {
    if (!pulls.warned) {
      pulls.warned = true;
      this.logger.warn(
        { collection, id: entityId, unconsumed: pulls.unconsumed.size, limit: this.maxUnconsumed },
        'the event consumers lag behind this entity\'s writes: its oldest changes leave the outbox before they were handled, and a crash now would lose those events for the consumers',
      );
    }
    const oldest = [...pulls.unconsumed.keys()].sort((a, b) => a - b).slice(0, pulls.unconsumed.size - this.maxUnconsumed);
    for (const revision of oldest) {
      const stored = pulls.unconsumed.get(revision) as StoredChange;
      pulls.unconsumed.delete(revision);
      this.queue({ collection, entityId, pulls, stored });
    }
  }

  private queue(pull: QueuedPull): void {
    pull.pulls.pulling.add(pull.stored.revision);
    this.queued.push(pull);
    this.flushSoon();
  }

  private flushSoon(): void {
    if (this.flushing) return;
    this.flushing = new Promise<void>((next) => setImmediate(next))
      .then(() => this.flush())
      .finally(() => {
        this.flushing = undefined;
        if (this.queued.length > 0) this.flushSoon();
      });
  }

  private async flush(): Promise<void> {
    const batch = this.queued;
    this.queued = [];
    // The whole entry as stored: a pull by equality, which every adapter implements (docs/ports.md).
    // Not one atomic section: the log's group commit already writes them together, and the
    // section cost more CPU per PATCH than it saved (BENCHMARKS.md, Documents).
    await Promise.all(
      batch.map(({ collection, entityId, stored }) =>
        this.store
          .collection(collection)
          .updateOne({ id: entityId }, { $pull: { _outbox: stored } })
          .catch((error: unknown) => {
            this.logger.warn({ err: error, collection, id: entityId }, 'outbox entry not removed yet; the sweeper publishes it again');
            this.pullFailed(collection, entityId);
          }),
      ),
    );
    for (const { collection, entityId, pulls, stored } of batch) {
      pulls.pulling.delete(stored.revision);
      this.forgetIfDone(entityKey(collection, entityId), pulls);
    }
  }

  private forgetIfDone(key: string, pulls: EntityPulls | undefined): void {
    if (pulls && pulls.publishing.size === 0 && pulls.unconsumed.size === 0 && pulls.pulling.size === 0 && this.entities.get(key) === pulls) this.entities.delete(key);
  }
}

function entityKey(collection: string, entityId: string): string {
  return `${collection}/${entityId}`;
}

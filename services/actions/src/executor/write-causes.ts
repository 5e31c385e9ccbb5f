import type { DocumentStore, StoredDocument } from '@platform/storage';

const COLLECTION = 'action-write-causes';

interface WriteCause extends StoredDocument {
  /** The user the write is made as; an event by anyone else at that revision is not ours. */
  userId: string;
  /** The depth the resulting event has: one more than the event that ran the writing action. */
  depth: number;
  createdAt: number;
}

/**
 * Remembers which document writes actions made, keyed by the message id their event will carry
 * (`<collection>/<id>/<revision>`), so the executor knows how deep in a chain of action-caused
 * events it is. The record is written before the write, because the event can be delivered before
 * the write call returns, and removed again when the write fails.
 */
export class WriteCauses {
  constructor(
    private readonly store: DocumentStore,
    private readonly clock: () => number,
  ) {}

  async expect(messageId: string, cause: { userId: string; depth: number }): Promise<void> {
    await this.store.collection<WriteCause>(COLLECTION).updateOne({ id: messageId }, { $set: { ...cause, createdAt: this.clock() } }, { upsert: true });
  }

  async forget(messageId: string): Promise<void> {
    await this.store.collection(COLLECTION).deleteMany({ id: messageId });
  }

  /** The depth of an event: the recorded one when an action made the write as this user, else 0. */
  async depthOf(messageId: string, userId: string): Promise<number> {
    const cause = await this.store.collection<WriteCause>(COLLECTION).findById(messageId);
    return cause && cause.userId === userId ? cause.depth : 0;
  }

  /** Drops records older than `maxAgeMs`: by then their events were handled long ago. */
  async prune(maxAgeMs: number): Promise<number> {
    return this.store.collection(COLLECTION).deleteMany({ createdAt: { $lt: this.clock() - maxAgeMs } });
  }
}

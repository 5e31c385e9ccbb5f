import { rlsFilter, type ProjectCaller } from '@platform/kit';
import type { DocumentStore } from '@platform/storage';
import type { StoredAction, TriggerName } from '../domain/action-schema';

export const ACTIONS_COLLECTION = 'actions';

/** Where actions live: one collection for all projects, every query scoped by `projectId`. */
export class ActionRepository {
  constructor(private readonly store: DocumentStore) {}

  private get collection() {
    return this.store.collection<StoredAction>(ACTIONS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.ensureIndex({ keys: { projectId: 1, createdAt: 1 } });
  }

  async insert(action: StoredAction): Promise<void> {
    await this.collection.insertOne(action);
  }

  /** A live action of the project, or null. */
  async find(projectId: string, id: string): Promise<StoredAction | null> {
    const action = await this.collection.findById(id);
    return action && action.projectId === projectId && action.deletedAt === undefined ? action : null;
  }

  /** The live actions the caller may read, oldest first. */
  async listReadable(projectId: string, caller: ProjectCaller): Promise<StoredAction[]> {
    const readable = rlsFilter('read', caller);
    const scope = { projectId, deletedAt: { $exists: false } };
    return this.collection.find(Object.keys(readable).length ? { $and: [scope, readable] } : scope, { sort: { createdAt: 1, id: 1 } });
  }

  /** Replaces an action's fields if it is still at `revision`; null when it changed meanwhile. */
  async replace(current: StoredAction, fields: Partial<StoredAction>, unset: string[], now: number): Promise<StoredAction | null> {
    return this.collection.updateOne(
      { id: current.id, revision: current.revision },
      { $set: { ...fields, updatedAt: now }, $inc: { revision: 1 }, ...(unset.length ? { $unset: Object.fromEntries(unset.map((field) => [field, '' as unknown])) } : {}) },
    );
  }

  /**
   * The live actions of a project with a trigger of this name, in the order they run: oldest first.
   * The type filter of a trigger is applied by the caller.
   */
  async triggeredBy(projectId: string, triggerName: TriggerName): Promise<StoredAction[]> {
    return this.collection.find({ projectId, deletedAt: { $exists: false }, 'triggers.triggerName': triggerName }, { sort: { createdAt: 1, id: 1 } });
  }
}

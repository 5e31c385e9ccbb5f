import { rlsOperations } from '@platform/contracts';
import { rlsFilter, type ProjectCaller } from '@platform/kit';
import type { Collection, DocumentStore, StoredDocument } from '@platform/storage';
import { LRUCache } from 'lru-cache';
import type { StoredAction, TriggerName } from '../domain/action-schema';

export const ACTIONS_COLLECTION = 'actions';

/**
 * Blocks are stored as JSON text: their configurations hold user keys such as an update
 * modifier's `$set`, which servers older than MongoDB 5 and the MongoDB-compatible test server
 * refuse as field names. Actions saved before this still hold `blocks` itself and read as before.
 */
interface StoredRecord extends StoredDocument {
  [field: string]: unknown;
  blocksJson?: string;
}

function toRecord(action: Partial<StoredAction>): Record<string, unknown> {
  const { blocks, ...rest } = action;
  return blocks === undefined ? rest : { ...rest, blocksJson: JSON.stringify(blocks) };
}

function fromRecord(record: StoredRecord | null): StoredAction | null {
  if (!record) return null;
  const { blocksJson, ...rest } = record;
  return { ...rest, blocks: blocksJson === undefined ? (rest.blocks ?? []) : JSON.parse(blocksJson) } as StoredAction;
}

/** An action without its blocks: what each document event reads of every candidate. */
export type ActionHead = Pick<StoredAction, 'id' | 'projectId' | 'triggers' | 'revision'>;

/** The blocks, the bulk of an action's bytes, left out of the heads. */
const WITHOUT_BLOCKS = { blocksJson: 0, blocks: 0 } as const;

/** Whole actions kept parsed, by id, each as of one revision. */
const PARSED_ACTIONS_KEPT = 1_000;

/**
 * And at most this many characters of their JSON. Parsed JSON can take 15 times its length in
 * memory (small nested arrays): bounded by count alone, ~290 actions of 1 MB ran the process out
 * of memory. 16 Mi characters hold every action of a project at the usual few kB each, and at
 * worst about 250 MB of heap.
 */
const PARSED_ACTIONS_KEPT_CHARACTERS = 16 * 1024 * 1024;

/** Where actions live: one collection for all projects, every query scoped by `projectId`. */
export class ActionRepository {
  // Asked once: every document event looks up its actions here, and asking the store for the
  // collection each time built a new instrumented wrapper (2% of a PATCH in the all-in-one).
  private readonly collection: Collection<StoredRecord>;
  /** Actions read whole, least recently used first: an event's matching actions are parsed once per revision, not once per event. */
  private readonly parsed = new LRUCache<string, StoredAction>({
    max: PARSED_ACTIONS_KEPT,
    maxSize: PARSED_ACTIONS_KEPT_CHARACTERS,
    sizeCalculation: (action) => JSON.stringify(action).length,
  });

  constructor(store: DocumentStore) {
    this.collection = store.collection<StoredRecord>(ACTIONS_COLLECTION);
  }

  /** Erases every action of a purged project, deleted ones included; answers how many. */
  eraseProject(projectId: string): Promise<number> {
    return this.collection.deleteMany({ projectId });
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.ensureIndex({ keys: { projectId: 1, createdAt: 1 } });
  }

  async insert(action: StoredAction): Promise<void> {
    await this.collection.insertOne(toRecord(action) as StoredRecord);
  }

  /** How many live actions the project holds. */
  liveCount(projectId: string): Promise<number> {
    return this.collection.count({ projectId, deletedAt: { $exists: false } });
  }

  /** A live action of the project, or null. */
  async find(projectId: string, id: string): Promise<StoredAction | null> {
    const action = fromRecord(await this.collection.findById(id));
    return action && action.projectId === projectId && action.deletedAt === undefined ? action : null;
  }

  /** The live actions the caller may read, oldest first. */
  async listReadable(projectId: string, caller: ProjectCaller): Promise<StoredAction[]> {
    const readable = rlsFilter('read', caller);
    const scope = { projectId, deletedAt: { $exists: false } };
    const records = await this.collection.find(Object.keys(readable).length ? { $and: [scope, readable] } : scope, { sort: { createdAt: 1, id: 1 } });
    return records.map((record) => fromRecord(record) as StoredAction);
  }

  /** Every action (of all projects, deleted ones too) whose access names a permission. */
  async withPermissionRules(): Promise<StoredAction[]> {
    const records = await this.collection.find({ $or: rlsOperations.map((operation) => ({ [`access.${operation}.permission`]: { $exists: true } })) });
    return records.map((record) => fromRecord(record) as StoredAction);
  }

  /** Replaces an action's fields if it is still at `revision`; null when it changed meanwhile. */
  async replace(current: StoredAction, fields: Partial<StoredAction>, unset: string[], now: number): Promise<StoredAction | null> {
    // An action saved before blocks were stored as JSON drops its old `blocks` field when they change.
    const dropped = fields.blocks === undefined ? unset : [...unset, 'blocks'];
    const updated = await this.collection.updateOne(
      { id: current.id, revision: current.revision },
      { $set: { ...toRecord(fields), updatedAt: now }, $inc: { revision: 1 }, ...(dropped.length ? { $unset: Object.fromEntries(dropped.map((field) => [field, '' as unknown])) } : {}) },
    );
    return fromRecord(updated);
  }

  /**
   * The live actions of a project with a trigger of this name, in the order they run (oldest
   * first), without their blocks: every document event reads these, so they leave out the bytes
   * (up to MAX_ACTION_BYTES an action, a megabyte for ones saved before that limit) only the matching ones need. The type filter of a trigger is
   * applied by the caller, and `whole` reads a matching action's blocks.
   */
  async triggeredBy(projectId: string, triggerName: TriggerName): Promise<ActionHead[]> {
    const records = await this.collection.find({ projectId, deletedAt: { $exists: false }, 'triggers.triggerName': triggerName }, { sort: { createdAt: 1, id: 1 }, projection: WITHOUT_BLOCKS });
    return records as unknown as ActionHead[];
  }

  /**
   * The action of `head` with its blocks: parsed once per revision and kept (the parse of every
   * candidate's blocks on every event took 1.5 s an event for 1,000 actions of 82 kB). A record
   * changed since the head was read answers as it is now, whole; a deleted one, null.
   */
  async whole(head: ActionHead): Promise<StoredAction | null> {
    const kept = this.parsed.get(head.id);
    if (kept !== undefined && kept.revision === head.revision) return kept;
    const action = fromRecord(await this.collection.findById(head.id));
    if (!action || action.projectId !== head.projectId || action.deletedAt !== undefined) return null;
    this.parsed.set(head.id, action);
    return action;
  }
}

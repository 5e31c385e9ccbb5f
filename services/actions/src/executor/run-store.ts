import { createHash, randomBytes } from 'node:crypto';
import { DuplicateKeyError, type DocumentStore, type StoredDocument } from '@platform/storage';

export const RUNS_COLLECTION = 'action-runs';

/**
 * The default lease of a running run (ACTIONS_RUN_LEASE_MS): the executor renews it while the run
 * is live (`renewedAt`), and one not renewed for this long was cut off (its process stopped): a
 * redelivery of its event marks it, and the hourly retention job marks runs by hand, which no
 * redelivery comes for. A redelivery finding a run `running` waits for it (or its lease) before the
 * event's next action, holding one of its project's executor slots, so the lease is short: a
 * crashed process's runs hold their projects up for at most this long. Renewing costs one write per
 * run every 10 s, and only runs that last that long make it.
 */
export const RUN_LEASE_MS = 30 * 1000;

/** Running runs whose lease lapsed before `cutoff`: last renewed before it, or never renewed and started before it. */
function leaseLapsed(cutoff: number) {
  return { $or: [{ renewedAt: { $lt: cutoff } }, { renewedAt: { $exists: false }, startedAt: { $lt: cutoff } }] };
}

export type BlockStatus = 'succeeded' | 'failed' | 'skipped';
export const RUN_STATUSES = ['running', 'succeeded', 'failed', 'interrupted'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface RunError {
  code: string;
  message: string;
}

/** A document a block read or wrote, or whose contents reached it through a connection. */
export interface DocumentRef {
  typeId: string;
  documentId: string;
}

export interface BlockResult {
  blockId: string;
  blockName: string;
  status: BlockStatus;
  startedAt: number;
  durationMs: number;
  summary?: Record<string, unknown>;
  error?: RunError;
  /** Why a block did not run. */
  reason?: string;
  /**
   * Every document this result may reveal something of besides the triggering one: the block's
   * own (update-database's target) and those of the blocks feeding it. Never answered; readers
   * who may not read one of them see the result redacted (see RunVisibility).
   */
  documents?: DocumentRef[];
}

/** A run's own fields; ActionRun is the record as stored. */
export interface RunFields {
  id: string;
  projectId: string;
  actionId: string;
  /** The message id of the document event: `<collection>/<id>/<revision>`. */
  eventId: string;
  triggerName: string;
  typeId: string;
  documentId: string;
  depth: number;
  /** The user who ran the action by hand on the document (its owner); absent on runs an event triggered. */
  startedBy?: string;
  status: RunStatus;
  /** When the executor last renewed the lease of this running run; absent until the first renewal. Never answered. */
  renewedAt?: number;
  /** When the triggering change was written (its history entry's timestamp); absent on runs recorded before it was kept. */
  changedAt?: number;
  startedAt: number;
  finishedAt?: number;
  durationMs?: number;
  blocks: BlockResult[];
  error?: RunError;
  /**
   * Set on every run the executor records with block `documents`. Runs recorded before it carry
   * no provenance, so their readers cannot be told which block results involve other documents.
   */
  blockDocumentsRecorded?: true;
}

export interface ActionRun extends RunFields, StoredDocument {}

/** One run per (event, action): the key that makes a redelivered event run nothing twice. */
export function runId(eventId: string, actionId: string): string {
  return createHash('sha256').update(`${eventId}\n${actionId}`).digest('hex').slice(0, 40);
}

/** A run by hand has an id of its own: the same document may be run on any number of times. */
export function manualRunId(): string {
  return randomBytes(20).toString('hex');
}

/** Run records: claimed before an action runs, completed after; listed newest first. */
export class RunStore {
  constructor(private readonly store: DocumentStore) {}

  private get collection() {
    return this.store.collection<ActionRun>(RUNS_COLLECTION);
  }

  /** Erases every run of a purged project; answers how many. */
  eraseProject(projectId: string): Promise<number> {
    return this.collection.deleteMany({ projectId });
  }

  /** Removes every run that started before `cutoff` (Unix ms); answers how many. */
  removeStartedBefore(cutoff: number): Promise<number> {
    return this.collection.deleteMany({ startedAt: { $lt: cutoff } });
  }

  async ensureIndexes(): Promise<void> {
    await Promise.all([
      this.collection.ensureIndex({ keys: { actionId: 1, startedAt: -1 } }),
      // The runs of one status (`?status=failed`): without it, a page of rare failures reads past every success.
      this.collection.ensureIndex({ keys: { actionId: 1, status: 1, startedAt: -1 } }),
      // The hourly removal of old runs (RunRetentionJob), which would scan them all without it.
      this.collection.ensureIndex({ keys: { startedAt: 1 } }),
      // The hourly search for runs by hand left `running`: a few among every run of the retention period.
      this.collection.ensureIndex({ keys: { status: 1, startedAt: 1 } }),
    ]);
  }

  /**
   * Claims the run of this action for this event: true when this call owns it, false when a run
   * exists already (a redelivery, or another replica got it first).
   */
  async claim(run: ActionRun): Promise<boolean> {
    try {
      await this.collection.insertOne(run);
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  async find(id: string): Promise<ActionRun | null> {
    return this.collection.findById(id);
  }

  async complete(run: ActionRun): Promise<void> {
    const { id, ...fields } = run;
    await this.collection.updateOne({ id, status: 'running' }, { $set: fields });
  }

  /** Renews the lease of a run still `running`: its process is alive and working on it. */
  async renew(id: string, now: number): Promise<void> {
    await this.collection.updateOne({ id, status: 'running' }, { $set: { renewedAt: now } });
  }

  /**
   * Marks runs by hand still `running` whose lease lapsed before `cutoff` as interrupted: their
   * process stopped, and no redelivery comes for them as it does for triggered runs. Answers how many.
   */
  async interruptManualRunsLapsedBefore(cutoff: number, error: RunError, now: number): Promise<number> {
    return this.collection.updateMany({ status: 'running', startedBy: { $exists: true }, ...leaseLapsed(cutoff) }, { $set: { status: 'interrupted', error, finishedAt: now } });
  }

  /**
   * Marks a run left `running` (its process stopped) so the record says what happened, only if its
   * lease still lapsed before `cutoff`: a renewal that landed meanwhile means it is alive. Answers
   * whether it did.
   */
  async markInterrupted(id: string, cutoff: number, error: RunError, now: number): Promise<boolean> {
    return (await this.collection.updateOne({ id, status: 'running', ...leaseLapsed(cutoff) }, { $set: { status: 'interrupted', error, finishedAt: now } })) !== null;
  }

  /** The action's runs, newest first, only those of `status` when given. */
  async list(actionId: string, page: { skip: number; limit: number }, status?: RunStatus): Promise<{ items: ActionRun[]; total: number }> {
    const filter = status === undefined ? { actionId } : { actionId, status };
    const [items, total] = await Promise.all([this.collection.find(filter, { sort: { startedAt: -1, id: 1 }, skip: page.skip, limit: page.limit }), this.collection.count(filter)]);
    return { items, total };
  }
}

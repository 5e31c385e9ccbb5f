import { assertSupportedModifier, modifiedPaths } from './modifier';
import { InvalidModifierError, type Collection, type StoredDocument, type UpdateModifier } from './port';

/** Fields a guarded update owns: a caller's modifier may not write them. */
const GUARDED_FIELDS: ReadonlySet<string> = new Set(['id', '_id', 'revision', 'updatedAt', '_outbox']);

export interface GuardedUpdateRequest {
  id: string;
  /** The update applies only while the stored revision equals this. */
  expectedRevision: number;
  modifier: UpdateModifier;
  /** Appended to the document's `_outbox`, stamped with the new revision. */
  change: Record<string, unknown>;
  /** The new `updatedAt`. */
  now: number;
}

export type GuardedUpdateResult<T> =
  | { status: 'updated'; document: T }
  | { status: 'conflict'; current: T }
  | { status: 'not-found' };

/**
 * Applies a modifier, increments `revision`, sets `updatedAt` and appends the change to
 * `_outbox`, as ONE atomic store operation guarded by the expected revision: of many concurrent
 * calls with the same expected revision exactly one succeeds.
 */
export async function guardedUpdate<T extends StoredDocument>(collection: Collection<T>, request: GuardedUpdateRequest): Promise<GuardedUpdateResult<T>> {
  assertSupportedModifier(request.modifier);
  const owned = modifiedPaths(request.modifier).find((path) => GUARDED_FIELDS.has(path.split('.')[0] as string));
  if (owned) throw new InvalidModifierError(`${owned} is written by the guarded update itself`);

  const revision = request.expectedRevision + 1;
  const modifier: UpdateModifier = {
    ...request.modifier,
    $inc: { ...request.modifier.$inc, revision: 1 },
    $set: { ...request.modifier.$set, updatedAt: request.now },
    $push: { ...request.modifier.$push, _outbox: { ...request.change, revision } },
  };
  // A document that changes between the failed guard and the re-read could look like a match;
  // retrying the guard settles it.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const document = await collection.updateOne({ id: request.id, revision: request.expectedRevision }, modifier);
    if (document) return { status: 'updated', document };
    const current = await collection.findById(request.id);
    if (!current) return { status: 'not-found' };
    if (current.revision !== request.expectedRevision) return { status: 'conflict', current };
  }
  const current = await collection.findById(request.id);
  return current ? { status: 'conflict', current } : { status: 'not-found' };
}

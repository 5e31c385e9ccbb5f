import { applyUpdate, pathsOverlap, type UpdateModifier } from '@platform/storage';
import { touchedPaths } from './modifier-rules';
import { valueAt } from './paths';

export interface ChangeRecord {
  userId: string;
  timestamp: number;
  baseRevision: number;
  modifier: UpdateModifier;
}

export interface FieldConflict {
  path: string;
  /** The value at the client's base revision. */
  base: unknown;
  /** The value on the server now. */
  theirs: unknown;
  /** The value the client's modifier gives when applied to its base. */
  mine: unknown;
  /** Whether a change since the base touched this path (or a path inside or around it). */
  serverTouched: boolean;
}

export interface ConflictDetails {
  baseRevision: number;
  currentRevision: number;
  current: Record<string, unknown>;
  changesSince: ChangeRecord[];
  fields: FieldConflict[];
}

/**
 * What a client needs to resolve a 409 field by field (Accept Theirs / Keep Mine): for every path
 * its modifier touches, the base, theirs and mine values and whether the server changed it too.
 */
export function conflictDetails(input: {
  base: Record<string, unknown>;
  current: Record<string, unknown> & { revision: number };
  baseRevision: number;
  changesSince: ChangeRecord[];
  modifier: UpdateModifier;
}): ConflictDetails {
  const serverPaths = input.changesSince.flatMap((change) => touchedPaths(change.modifier));
  const mineDocument = applyUpdate(input.base, input.modifier);
  const fields = touchedPaths(input.modifier).map((path) => ({
    path,
    base: valueAt(input.base, path),
    theirs: valueAt(input.current, path),
    mine: valueAt(mineDocument, path),
    serverTouched: serverPaths.some((serverPath) => pathsOverlap(path, serverPath)),
  }));
  return { baseRevision: input.baseRevision, currentRevision: input.current.revision, current: input.current, changesSince: input.changesSince, fields };
}

/**
 * Asked before a 409's details are computed, with the revisions of history they replay: a bulk
 * request spends a budget on them. False answers the conflict without them (omittedConflictDetails).
 */
export type ConflictDetailsGate = (replayedRevisions: number) => boolean;

/** A conflict's details when they were not computed: sending the write again alone gets them. */
export function omittedConflictDetails(baseRevision: number, currentRevision: number): { baseRevision: number; currentRevision: number; detailsOmitted: true } {
  return { baseRevision, currentRevision, detailsOmitted: true };
}

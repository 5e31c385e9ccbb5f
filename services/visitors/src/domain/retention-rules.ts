import { defaultDeletionPeriod, type DeletionPeriod } from '@platform/widgets';

/**
 * The deletion period a visitor keeps: the one whose duration the client asked for, else the
 * widget's default. Answers null when the client asked for a duration the widget does not offer.
 */
export function chooseDeletionPeriod(periods: DeletionPeriod[], requestedDuration: number | undefined): DeletionPeriod | null {
  if (requestedDuration === undefined) return defaultDeletionPeriod({ deletionPeriods: periods });
  return periods.find((period) => period.duration === requestedDuration) ?? null;
}

/** The internal retention fields for a visitor seen at `now` that keeps `preference` ms. */
export function retentionFields(now: number, preference: number): { deleteOn: number; deleteOnPreference: number } {
  return { deleteOn: now + preference, deleteOnPreference: preference };
}

/** Fields an erased record keeps: identity and timestamps, so clients still see it as removed. */
const KEPT_ON_ERASURE = new Set(['id', 'revision', 'createdAt', 'updatedAt', 'deletedAt', 'access']);

/**
 * The one change that erases a record: every personal field removed and the record marked
 * deleted (at the time it was soft-deleted, if it was), so the change is a `deleted` event.
 */
export function erasureModifier(entity: Record<string, unknown>, now: number): Record<string, Record<string, unknown>> {
  const personal = Object.keys(entity).filter((key) => !KEPT_ON_ERASURE.has(key) && !key.startsWith('_'));
  const deletedAt = typeof entity.deletedAt === 'number' ? entity.deletedAt : now;
  return { $set: { deletedAt }, ...(personal.length ? { $unset: Object.fromEntries(personal.map((key) => [key, ''])) } : {}) };
}

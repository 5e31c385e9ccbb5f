/**
 * The author of the visitors' retention erasures (docs/visitors.md, Retention). Each erasure is
 * one `deleted` change by this author that removes every personal field of a record, after which
 * the record's earlier history is deleted. A service that copied anything of the record's content
 * (audit: the entity title on each trail item) recognises the erasure by it and erases its copies.
 */
export const RETENTION_USER_ID = 'system:retention';

/** Whether a change is a retention erasure: a deletion written by the retention job. */
export function isRetentionErasure(change: { userId: string; changeType: string }): boolean {
  return change.userId === RETENTION_USER_ID && change.changeType === 'deleted';
}

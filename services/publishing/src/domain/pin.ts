import type { UpdateModifier } from '@platform/storage';

/** What an assign request does to a domain's pin (the spec's Domain pin table). */
export type PinChange = { kind: 'pin'; versionId: string } | { kind: 'unpin' } | { kind: 'unchanged' };

/**
 * The Domain pin table: `targetVersionId` truthy pins that version; the key present with null or
 * another falsy value unpins (the latest published version is served); the key absent leaves the
 * pin as it is.
 */
export function pinChange(body: { targetVersionId?: unknown }): PinChange {
  if (!Object.hasOwn(body, 'targetVersionId')) return { kind: 'unchanged' };
  const value = body.targetVersionId;
  if (value && typeof value === 'string') return { kind: 'pin', versionId: value };
  if (value) throw new TypeError('a truthy targetVersionId must be a version id string');
  return { kind: 'unpin' };
}

/** The store modifier for an assignment: the target with `$set`, the pin with `$set` or `$unset`. */
export function assignModifier(target: { targetType: string; targetId: string }, pin: PinChange, now: number): UpdateModifier {
  const modifier: UpdateModifier = {
    $set: { targetType: target.targetType, targetId: target.targetId, updatedAt: now, ...(pin.kind === 'pin' ? { targetVersionId: pin.versionId } : {}) },
    $inc: { revision: 1 },
  };
  if (pin.kind === 'unpin') modifier.$unset = { targetVersionId: '' };
  return modifier;
}

/** Whether an assignment leaves the domain as it is: the same target, and the same pin (or none) after it. */
export function assignsNothing(domain: { targetType?: string; targetId?: string; targetVersionId?: string }, target: { targetType: string; targetId: string }, pin: PinChange): boolean {
  const pinnedBefore = domain.targetVersionId || undefined;
  return domain.targetType === target.targetType && domain.targetId === target.targetId && pinnedAfter(pin, pinnedBefore) === pinnedBefore;
}

/** The version a domain pins after the change, given the one it pinned before. */
export function pinnedAfter(pin: PinChange, before: string | undefined): string | undefined {
  if (pin.kind === 'pin') return pin.versionId;
  if (pin.kind === 'unpin') return undefined;
  return before;
}

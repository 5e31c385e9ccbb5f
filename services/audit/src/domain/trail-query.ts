import type { ChangeKind } from '@platform/contracts';
import { rlsFilter, type ProjectCaller } from '@platform/kit';
import type { Filter, SortSpec } from '@platform/storage';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** The audit-trail query after validation: `limit` already clamped. */
export interface TrailQuery {
  page: number;
  limit: number;
  userId?: string;
  typeId?: string;
  from?: number;
  to?: number;
  changeType?: ChangeKind;
}

/** Newest first; the id breaks ties between changes stamped in the same millisecond. */
export const TRAIL_ORDER: SortSpec = { timestamp: -1, id: -1 };

/** Larger page sizes are clamped to the maximum (spec: not an error). */
export function clampLimit(limit: number): number {
  return Math.min(limit, MAX_PAGE_SIZE);
}

/**
 * The store filter for one project's trail with the query's filters (`from` and `to` inclusive)
 * and read RLS on each item's copy of its entity's current access, so `total` counts only items
 * the caller may see. Items of the `unreadableTypes` (types whose own read rule excludes the
 * caller) are left out as well: a type's read rule guards its documents.
 */
export function trailFilter(projectId: string, query: Omit<TrailQuery, 'page' | 'limit'>, caller: ProjectCaller, unreadableTypes: readonly string[]): Filter {
  const filter: Filter = { projectId };
  if (query.userId !== undefined) filter.userId = query.userId;
  if (query.typeId !== undefined) filter.entityTypeId = query.typeId;
  if (query.changeType !== undefined) filter.changeType = query.changeType;
  if (query.from !== undefined || query.to !== undefined) {
    filter.timestamp = { ...(query.from !== undefined ? { $gte: query.from } : {}), ...(query.to !== undefined ? { $lte: query.to } : {}) };
  }
  const conditions: Filter[] = [filter];
  if (unreadableTypes.length > 0) conditions.push({ entityTypeId: { $nin: [...unreadableTypes] } });
  const readable = rlsFilter('read', caller);
  if (Object.keys(readable).length) conditions.push(readable);
  return conditions.length > 1 ? { $and: conditions } : filter;
}

/** How many items to skip for a 1-based page. */
export function skipFor(query: Pick<TrailQuery, 'page' | 'limit'>): number {
  return (query.page - 1) * query.limit;
}

import type { SyncConflict } from './types.js';

/** An error body as the data service answers it: `{ error, code, details }`. */
export interface RefusalBody {
  error?: string;
  code?: string;
  details?: { field?: unknown; problems?: unknown };
}

/** A modifier problem's path names the operator before the field: `modifier.$set.title`. */
const MODIFIER_PREFIX = /^modifier\.\$[A-Za-z]+\./;

/**
 * The document field a refusal names, so an application can show the message beside it: a
 * limit's `details.field`, else the first of `details.problems` (a schema violation's `field`, a
 * modifier problem's `path`). Nested paths stay whole (`address.city`).
 */
export function refusedField(details: RefusalBody['details']): string | undefined {
  if (typeof details?.field === 'string' && details.field) return details.field;
  const first: unknown = Array.isArray(details?.problems) ? details.problems[0] : undefined;
  if (!first || typeof first !== 'object') return undefined;
  const { field, path } = first as { field?: unknown; path?: unknown };
  if (typeof field === 'string' && field) return field;
  if (typeof path === 'string' && MODIFIER_PREFIX.test(path)) return path.replace(MODIFIER_PREFIX, '');
  return undefined;
}

/** What a conflict keeps of the server's refusal: status, code, message and the field it names. */
export function refusalOf(status: number, body: RefusalBody | undefined): NonNullable<SyncConflict['error']> {
  const field = refusedField(body?.details);
  return { status, code: body?.code, message: body?.error ?? '', ...(field ? { field } : {}) };
}

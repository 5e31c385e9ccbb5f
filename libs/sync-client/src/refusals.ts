import type { RefusedRule, SyncConflict } from './types.js';

/** An error body as the data service answers it: `{ error, code, details }`. */
export interface RefusalBody {
  error?: string;
  code?: string;
  details?: { field?: unknown; problems?: unknown };
}

/** A modifier problem's path names the operator before the field: `modifier.$set.title`. */
const MODIFIER_PREFIX = /^modifier\.\$[A-Za-z]+\./;

/** What a refusal says of the field it names: the field, its message, and the schema rule it broke. */
export interface RefusedField {
  field: string;
  fieldMessage?: string;
  rule?: RefusedRule;
}

/** A schema problem's keyword and parameters, when the problem carries them (schema violations do). */
function ruleOf(problem: { keyword?: unknown; params?: unknown }): { rule?: RefusedRule } {
  const { keyword, params } = problem;
  if (typeof keyword !== 'string' || !keyword) return {};
  return { rule: { keyword, params: params && typeof params === 'object' && !Array.isArray(params) ? (params as Record<string, unknown>) : {} } };
}

/**
 * The document field a refusal names, so an application can show the message beside it: a
 * limit's `details.field`, else the first of `details.problems` (a schema violation's `field`, a
 * modifier problem's `path`), with what that problem says of the field alone (`must be integer`)
 * and, for a schema violation, the rule it broke, so the application can say it in its own words
 * and language (`{ keyword: 'maxLength', params: { limit: 40 } }`). Nested paths stay whole
 * (`address.city`).
 */
export function refusedField(details: RefusalBody['details']): RefusedField | undefined {
  if (typeof details?.field === 'string' && details.field) return { field: details.field };
  const first: unknown = Array.isArray(details?.problems) ? details.problems[0] : undefined;
  if (!first || typeof first !== 'object') return undefined;
  const { field, path, message } = first as { field?: unknown; path?: unknown; message?: unknown };
  const own = { ...(typeof message === 'string' && message ? { fieldMessage: message } : {}), ...ruleOf(first) };
  if (typeof field === 'string' && field) return { field, ...own };
  if (typeof path === 'string' && MODIFIER_PREFIX.test(path)) return { field: path.replace(MODIFIER_PREFIX, ''), ...own };
  return undefined;
}

/** What a conflict keeps of the server's refusal: status, code, message, and the field it names with what it says of it. */
export function refusalOf(status: number, body: RefusalBody | undefined): NonNullable<SyncConflict['error']> {
  return { status, code: body?.code, message: body?.error ?? '', ...refusedField(body?.details) };
}

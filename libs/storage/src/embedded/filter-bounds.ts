import type { Filter } from '../port';
import { isPlain, type Plain } from './plain';
import { compareValues } from './sort-documents';

/** One end of a range a field's value must lie in (MongoDB order); inclusive ends may also be open. */
export interface Bound {
  value: Plain;
  inclusive: boolean;
}

export interface FieldBounds {
  low?: Bound;
  high?: Bound;
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).every((key) => key.startsWith('$'));
}

function higher(a: Bound | undefined, b: Bound | undefined): Bound | undefined {
  if (!a || !b) return a ?? b;
  const order = compareValues(a.value, b.value);
  return order > 0 || (order === 0 && !a.inclusive) ? a : b;
}

function lower(a: Bound | undefined, b: Bound | undefined): Bound | undefined {
  if (!a || !b) return a ?? b;
  const order = compareValues(a.value, b.value);
  return order < 0 || (order === 0 && !a.inclusive) ? a : b;
}

/** Both ends must hold: the tighter of each. */
function intersect(a: FieldBounds, b: FieldBounds): FieldBounds {
  return { low: higher(a.low, b.low), high: lower(a.high, b.high) };
}

/** Either may hold: an end only where every arm has one, the looser of them. */
function union(arms: FieldBounds[]): FieldBounds {
  const looserLow = (a: Bound, b: Bound): Bound => (higher(a, b) === a ? b : a);
  const looserHigh = (a: Bound, b: Bound): Bound => (lower(a, b) === a ? b : a);
  const low = arms.every((arm) => arm.low) ? arms.map((arm) => arm.low as Bound).reduce(looserLow) : undefined;
  const high = arms.every((arm) => arm.high) ? arms.map((arm) => arm.high as Bound).reduce(looserHigh) : undefined;
  return { low, high };
}

function conditionBounds(condition: unknown): FieldBounds {
  if (isPlain(condition)) return { low: { value: condition, inclusive: true }, high: { value: condition, inclusive: true } };
  if (!isOperatorObject(condition)) return {};
  let bounds: FieldBounds = {};
  for (const [operator, value] of Object.entries(condition)) {
    if (!isPlain(value)) continue;
    if (operator === '$eq') bounds = intersect(bounds, conditionBounds(value));
    else if (operator === '$gt' || operator === '$gte') bounds = intersect(bounds, { low: { value, inclusive: operator === '$gte' } });
    else if (operator === '$lt' || operator === '$lte') bounds = intersect(bounds, { high: { value, inclusive: operator === '$lte' } });
  }
  return bounds;
}

/**
 * The range every document matching `filter` has its top-level `field` in, as far as the filter
 * shows it: equalities, `$gt`/`$gte`/`$lt`/`$lte`, combined through `$and` and `$or`. Anything the
 * filter says otherwise is not narrowed, so the range may be wider than the matches, never
 * narrower: the caller still tests the whole filter on every document it reads. MongoDB's range
 * operators match only values of the bound's own type, and the order used here ranks types as
 * MongoDB does, so the range stays sound across types.
 */
export function fieldBounds(filter: Filter, field: string): FieldBounds {
  let bounds = field in filter ? conditionBounds(filter[field]) : {};
  if (Array.isArray(filter.$and)) {
    for (const arm of filter.$and as Filter[]) if (arm && typeof arm === 'object') bounds = intersect(bounds, fieldBounds(arm, field));
  }
  if (Array.isArray(filter.$or) && filter.$or.length > 0) {
    bounds = intersect(bounds, union((filter.$or as Filter[]).map((arm) => (arm && typeof arm === 'object' ? fieldBounds(arm, field) : {}))));
  }
  return bounds;
}

/** The bounds pin one value (an equality). */
export function isEquality(bounds: FieldBounds): boolean {
  return Boolean(bounds.low?.inclusive && bounds.high?.inclusive && compareValues(bounds.low.value, bounds.high.value) === 0);
}

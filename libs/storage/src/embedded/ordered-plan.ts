import type { Filter, IndexSpec, SortSpec } from '../port';
import { fieldBounds, isEquality, type FieldBounds } from './filter-bounds';
import { OrderedIndex } from './ordered-index';
import { isPlain } from './plain';

/** How a find or count reads one ordered index. */
export interface OrderedPlan {
  spec: IndexSpec;
  /** Per leading index field: the equalities, then at most one range. */
  bounds: FieldBounds[];
  /** The index order (or its reverse) is the requested sort, so a page can stop early. */
  sorted: boolean;
  reverse: boolean;
  /** What the index range does not already guarantee: the filter less its top-level equalities on the pinned fields. */
  residual: Filter;
}

/**
 * Whether reading the index from `from` on (its fields, then the id every key ends with) gives
 * `sort`'s order: forwards, backwards, or neither.
 */
function orientation(spec: IndexSpec, from: number, sort: SortSpec | undefined): 'forward' | 'reverse' | undefined {
  const wanted = Object.entries(sort ?? {});
  if (wanted.length === 0) return undefined;
  const order = [...Object.entries(spec.keys), ['id', 1] as const].slice(from);
  let same = true;
  let opposite = true;
  for (let position = 0; position < wanted.length; position += 1) {
    const [field, direction] = wanted[position]!;
    const held = order[position];
    if (!held || held[0] !== field) return undefined;
    if (held[1] === direction) opposite = false;
    else same = false;
  }
  return same ? 'forward' : opposite ? 'reverse' : undefined;
}

/**
 * Every key in the range of an equality holds exactly that value (the order ranks types apart),
 * so a top-level scalar equality on a pinned field need not be tested again.
 */
function withoutPinned(filter: Filter, pinned: string[]): Filter {
  const residual: Filter = { ...filter };
  for (const field of pinned) {
    if (isPlain(residual[field])) delete residual[field];
  }
  return residual;
}

/**
 * The best ordered index for a filter (and sort): most leading fields pinned by equalities, then a
 * range on the next field, then a matching sort. None when no index narrows the read or gives the
 * order, so the caller falls back to its other lookups or a scan.
 */
export function planOrderedScan(specs: IndexSpec[], filter: Filter, sort?: SortSpec): OrderedPlan | undefined {
  let best: { plan: OrderedPlan; score: number } | undefined;
  for (const spec of specs) {
    if (!OrderedIndex.covers(spec)) continue;
    const bounds: FieldBounds[] = [];
    let equalities = 0;
    for (const field of Object.keys(spec.keys)) {
      const range = fieldBounds(filter, field);
      if (isEquality(range)) {
        bounds.push(range);
        equalities += 1;
        continue;
      }
      if (range.low || range.high) bounds.push(range);
      break;
    }
    const ranged = bounds.length > equalities;
    const direction = orientation(spec, equalities, sort);
    if (equalities === 0 && !ranged && !direction) continue;
    const score = equalities * 4 + (ranged ? 2 : 0) + (direction ? 1 : 0);
    if (!best || score > best.score) {
      best = { plan: { spec, bounds, sorted: direction !== undefined, reverse: direction === 'reverse', residual: withoutPinned(filter, Object.keys(spec.keys).slice(0, equalities)) }, score };
    }
  }
  return best?.plan;
}

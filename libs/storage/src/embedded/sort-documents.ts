import type { StoredDocument } from '../port';

/** MongoDB's order for the values a JSON document can hold: missing = null < numbers < strings < objects < arrays < booleans. */
const TYPE_RANK: Record<string, number> = { undefined: 1, null: 1, number: 2, string: 3, object: 4, array: 5, boolean: 6 };

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function compareValues(a: unknown, b: unknown): number {
  // Sort keys are mostly numbers or strings on both sides: no ranking needed then.
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  const rankA = TYPE_RANK[typeOf(a)] ?? 7;
  const rankB = TYPE_RANK[typeOf(b)] ?? 7;
  if (rankA !== rankB) return rankA - rankB;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0;
}

export function valueAt(document: Record<string, unknown>, segments: string[]): unknown {
  let current: unknown = document;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

interface Decorated<T> {
  document: T;
  values: unknown[];
  /** Position in the input: equal sort values keep it, as a stable sort does. */
  position: number;
}

/**
 * The documents in `sort` order; with `keep`, only the first `keep` of them. A page of a large
 * result (a pull reads 1,000 of 10,000) is picked with a bounded heap in O(n log keep) instead of
 * sorting everything.
 */
export function sortDocuments<T extends StoredDocument>(documents: T[], sort: Record<string, 1 | -1>, keep?: number): T[] {
  const paths = Object.keys(sort).map((path) => path.split('.'));
  const directions = Object.values(sort);
  const compare = (a: Decorated<T>, b: Decorated<T>): number => {
    for (let index = 0; index < directions.length; index += 1) {
      const order = compareValues(a.values[index], b.values[index]);
      if (order !== 0) return order * directions[index]!;
    }
    return a.position - b.position;
  };
  // Each document's sort values are looked up once, not at every comparison.
  const decorate = (document: T, position: number): Decorated<T> => {
    const values = new Array<unknown>(paths.length);
    for (let index = 0; index < paths.length; index += 1) values[index] = valueAt(document, paths[index]!);
    return { document, values, position };
  };
  if (keep === undefined || keep * 4 >= documents.length) {
    return documents.map(decorate).sort(compare).slice(0, keep).map(({ document }) => document);
  }
  return boundedHeap(documents, keep, decorate, compare).map(({ document }) => document);
}

/** The `keep` smallest by `compare`, in order: a max-heap whose root is the largest kept so far. */
function boundedHeap<T>(documents: T[], keep: number, decorate: (document: T, position: number) => Decorated<T>, compare: (a: Decorated<T>, b: Decorated<T>) => number): Array<Decorated<T>> {
  const heap: Array<Decorated<T>> = [];
  const siftDown = (from: number) => {
    let parent = from;
    for (;;) {
      const left = parent * 2 + 1;
      const right = left + 1;
      let largest = parent;
      if (left < heap.length && compare(heap[left]!, heap[largest]!) > 0) largest = left;
      if (right < heap.length && compare(heap[right]!, heap[largest]!) > 0) largest = right;
      if (largest === parent) return;
      [heap[parent], heap[largest]] = [heap[largest]!, heap[parent]!];
      parent = largest;
    }
  };
  if (keep <= 0) return [];
  documents.forEach((document, position) => {
    const candidate = decorate(document, position);
    if (heap.length < keep) {
      heap.push(candidate);
      for (let child = heap.length - 1; child > 0; ) {
        const parent = (child - 1) >> 1;
        if (compare(heap[child]!, heap[parent]!) <= 0) break;
        [heap[parent], heap[child]] = [heap[child]!, heap[parent]!];
        child = parent;
      }
    } else if (compare(candidate, heap[0]!) < 0) {
      heap[0] = candidate;
      siftDown(0);
    }
  });
  return heap.sort(compare);
}

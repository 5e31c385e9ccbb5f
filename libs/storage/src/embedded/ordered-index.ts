import { createRequire } from 'node:module';
import type BTreeClass from 'sorted-btree';
import type { IndexSpec, StoredDocument } from '../port';
import type { FieldBounds } from './filter-bounds';
import { compareValues } from './sort-documents';

// sorted-btree is CommonJS; its bulk loader is a separate module.
const require = createRequire(import.meta.url);
const { bulkLoad } = require('sorted-btree/extended/bulkLoad') as typeof import('sorted-btree/extended/bulkLoad');
/** sorted-btree's default node size. */
const NODE_SIZE = 64;

/** Sort before and after every value: the open ends of a scan's start and end keys. */
const FIRST = Symbol('first');
const LAST = Symbol('last');
/** The indexed values in the spec's order, then the document id (unique, so every key is). */
type Key = unknown[];

/**
 * A declared index whose fields are all top-level, kept as a B-tree in the index's own order, the
 * way MongoDB keeps one: a filter with equalities on its leading fields (and perhaps a range on
 * the next) reads only that part of it, and a sort matching the following fields reads it in
 * order, so a page stops after its last document. A document holding an array in an indexed
 * field would need one key per element (MongoDB's multikey): it is kept out, and the index
 * declines every query while such a document exists.
 */
export class OrderedIndex<T extends StoredDocument> {
  readonly fields: string[];
  readonly directions: Array<1 | -1>;
  private readonly tree: BTreeClass<Key, T>;
  private multikeyDocuments = 0;

  constructor(spec: IndexSpec, documents: Iterable<T>) {
    this.fields = Object.keys(spec.keys);
    this.directions = Object.values(spec.keys).map((direction) => (direction === -1 ? -1 : 1));
    this.tree = this.load(documents);
  }

  /** Sorts the keys once and builds the tree bottom-up: several times faster than one insert each. */
  private load(documents: Iterable<T>): BTreeClass<Key, T> {
    const entries: Array<[Key, T]> = [];
    for (const document of documents) {
      const key = this.keyOf(document);
      if (key) entries.push([key, document]);
      else this.multikeyDocuments += 1;
    }
    entries.sort((a, b) => this.compare(a[0], b[0]));
    return bulkLoad(entries.map(([key]) => key), entries.map(([, document]) => document), NODE_SIZE, this.compare);
  }

  /** Fields named in dotted paths are left to the other lookups. */
  static covers(spec: IndexSpec): boolean {
    return Object.keys(spec.keys).every((field) => !field.includes('.'));
  }

  get usable(): boolean {
    return this.multikeyDocuments === 0;
  }

  add(document: T): void {
    const key = this.keyOf(document);
    if (key) this.tree.set(key, document);
    else this.multikeyDocuments += 1;
  }

  /** Takes out the document as it was added (stored documents are replaced, never changed). */
  remove(document: T): void {
    const key = this.keyOf(document);
    if (key) this.tree.delete(key);
    else this.multikeyDocuments -= 1;
  }

  /** Moves the entry of `previous` to `next`: one step in place when the key did not change. */
  replace(previous: T, next: T): void {
    const before = this.keyOf(previous);
    const after = this.keyOf(next);
    if (before && after && this.compare(before, after) === 0) {
      this.tree.set(before, next);
      return;
    }
    this.remove(previous);
    this.add(next);
  }

  /**
   * Hands `visit` the documents whose key lies in `bounds` (per leading field, in the spec's
   * order; a field without bounds ends the narrowing), in index order or its reverse, until it
   * answers true.
   */
  visit(bounds: FieldBounds[], reverse: boolean, visit: (document: T) => boolean): void {
    const start: Key = [];
    const end: Key = [];
    for (let position = 0; position < this.fields.length; position += 1) {
      const range = bounds[position];
      // In a descending field the high end of the values comes first.
      const [first, last] = this.directions[position] === 1 ? [range?.low, range?.high] : [range?.high, range?.low];
      start.push(first ? first.value : FIRST);
      end.push(last ? last.value : LAST);
    }
    start.push(FIRST);
    end.push(LAST);
    if (!reverse) {
      // forRange walks the leaves between the two ends without comparing every key; `{ break }` stops it.
      this.tree.forRange(start, end, true, ((_key: Key, document: T) => (visit(document) ? { break: true } : undefined)) as never);
      return;
    }
    for (const [key, document] of this.tree.entriesReversed(end)) {
      if (this.compare(key, start) < 0 || visit(document)) return;
    }
  }

  /** The document's key, or undefined when an indexed field holds an array. */
  private keyOf(document: T): Key | undefined {
    const key: Key = [];
    for (const field of this.fields) {
      const value = (document as Record<string, unknown>)[field] ?? null;
      if (Array.isArray(value)) return undefined;
      key.push(value);
    }
    key.push(document.id);
    return key;
  }

  private readonly compare = (a: Key, b: Key): number => {
    for (let position = 0; position < a.length; position += 1) {
      const x = a[position];
      const y = b[position];
      if (x === y) continue;
      // The open ends sort by tree order, whatever the field's direction.
      if (x === FIRST || y === LAST) return -1;
      if (x === LAST || y === FIRST) return 1;
      const order = compareValues(x, y);
      if (order !== 0) return position < this.directions.length ? order * this.directions[position]! : order;
    }
    return 0;
  };
}

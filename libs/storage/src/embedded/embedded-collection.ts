import { Query } from 'mingo';
import { applyUpdate } from '../apply-update';
import { copyJson } from '../copy-json';
import { assertSupportedModifier } from '../modifier';
import { DuplicateKeyError, StoreUnavailableError, type BoundedFind, type Collection, type Filter, type FindOptions, type IndexSpec, type Projection, type StoredDocument, type UpdateModifier } from '../port';
import type { CollectionRecord, CollectionWriter, UniqueKeyChange } from './store-log';
import type { LogReporter } from './log-reporter';
import { LookupIndex } from './lookup-index';
import { OrderedIndex } from './ordered-index';
import { planOrderedScan, type OrderedPlan } from './ordered-plan';
import { Matches } from './matches';
import { QUERY_OPTIONS } from './query-engine';
import { ReadGate } from './read-gate';
import { sortDocuments } from './sort-documents';
import { StoredJson } from './stored-json';
import { projectTopLevel } from './top-level-projection';
import { buildUniqueIndex, duplicateKey, indexKey, releaseKey, replayUniqueIndex, type KeyClash, type UniqueIndex } from './unique-index';

function sameKeys(a: IndexSpec, b: IndexSpec): boolean {
  return JSON.stringify(a.keys) === JSON.stringify(b.keys);
}

/** Each document's position in `records` at its last put: which of two was written later. */
function lastPuts(records: CollectionRecord[]): Map<string, number> {
  const positions = new Map<string, number>();
  records.forEach((record, position) => {
    if ('put' in record) positions.set(String(record.put.id), position);
  });
  return positions;
}

/** The filter's plain equality fields: what an upsert starts its new document from. */
function equalityFields(filter: Filter): Record<string, unknown> {
  const seed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key.startsWith('$') || key.includes('.')) continue;
    const isOperator = value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).some((k) => k.startsWith('$'));
    if (!isOperator) seed[key] = copyJson(value);
  }
  return seed;
}

/**
 * A collection held in memory and persisted through its log. Every read and write runs its whole
 * match-and-change in one synchronous step, so each single-document write is atomic; the write
 * resolves once its log line is on disk. Once the log refuses writes, every write is refused
 * before it changes memory (StoreUnavailableError), and reads wait at the store's gate while the
 * store brings memory back to what the log holds (`reload`).
 */
export class EmbeddedCollection<T extends StoredDocument> implements Collection<T> {
  private readonly documents = new Map<string, T>();
  private readonly indexes: IndexSpec[] = [];
  private readonly uniqueIndexes: UniqueIndex[] = [];
  /** Top-level fields of the declared indexes (any position): each may get a lookup. */
  private readonly lookupFields = new Set<string>();
  /** Built the first time a filter asks for an equality on the field, then kept up to date. */
  private readonly lookups = new Map<string, LookupIndex>();
  /** Built the first time a query plan picks the index, then kept up to date. */
  private readonly ordered = new Map<IndexSpec, OrderedIndex<T>>();
  private readonly json = new StoredJson<T>();
  private writer: CollectionWriter | undefined;

  constructor(
    readonly name: string,
    private readonly gate = new ReadGate(),
  ) {}

  /**
   * Rebuilds the state from the log's records (at open, before any other call). Two documents
   * holding one key of a unique index do not stop it (see replayUniqueIndex): each such clash is
   * told to `warn`.
   */
  replay(records: CollectionRecord[], warn: LogReporter['warn']): void {
    for (const record of records) {
      if ('put' in record) this.documents.set(String(record.put.id), record.put as T);
      else if ('del' in record) this.documents.delete(record.del);
      else if ('index' in record && !this.indexes.some((spec) => sameKeys(spec, record.index))) this.indexes.push(record.index);
    }
    let positions: Map<string, number> | undefined;
    const writtenAt = (id: string) => (positions ??= lastPuts(records)).get(id) ?? -1;
    for (const spec of this.indexes) {
      if (spec.unique) {
        const fields = Object.keys(spec.keys).join(', ');
        const clashed = ({ key, kept, other }: KeyClash) =>
          warn(
            { collection: this.name, index: spec.keys, key, kept, other },
            `embedded store: documents ${other} and ${kept} of ${this.name} both hold ${key} of the unique index on ${fields}; ${kept}, written later, keeps it, and a write of ${other} that keeps it is refused as a duplicate`,
          );
        this.uniqueIndexes.push(replayUniqueIndex(spec, this.documents.values(), writtenAt, clashed));
      }
      this.addLookup(spec);
    }
  }

  attach(writer: CollectionWriter): void {
    this.writer = writer;
  }

  /** Forgets the state, in place, and rebuilds it from `records` (what the log holds after it failed). */
  reload(records: CollectionRecord[], warn: LogReporter['warn']): void {
    this.forget();
    this.replay(records, warn);
  }

  private forget(): void {
    this.documents.clear();
    this.indexes.length = 0;
    this.uniqueIndexes.length = 0;
    this.lookupFields.clear();
    this.lookups.clear();
    this.ordered.clear();
  }

  get size(): number {
    return this.documents.size;
  }

  /** The JSON of the document with `id` as stored now (undefined when there is none): what an atomic section's line holds. */
  currentJson(id: string): string | undefined {
    const document = this.documents.get(id);
    return document && this.json.of(document);
  }

  /** Whether the JSON text of the document with `id` is kept (StoredJson: only a write of this process keeps one); for tests. */
  keepsJsonOf(id: string): boolean {
    const document = this.documents.get(id);
    return document !== undefined && this.json.keeps(document);
  }

  /** Whether it holds no document and no index: a snapshot leaves it out. */
  get isEmpty(): boolean {
    return this.documents.size === 0 && this.indexes.length === 0;
  }

  /**
   * Forgets every document and index, in place, so handles to this collection stay valid (see
   * DocumentStore.dropCollection); an empty one writes nothing.
   */
  async drop(): Promise<void> {
    if (this.isEmpty) return;
    const writer = this.writerUnlessRefused();
    this.forget();
    await this.persisted(writer.drop());
  }

  /** The indexes and documents as they are now (stored documents are never changed, only replaced). */
  snapshot(): { indexes: IndexSpec[]; documents: T[] } {
    return { indexes: [...this.indexes], documents: [...this.documents.values()] };
  }

  async insertOne(doc: T): Promise<void> {
    await this.insertMany([doc]);
  }

  async insertMany(docs: T[]): Promise<void> {
    this.writerUnlessRefused();
    const writes: Promise<void>[] = [];
    try {
      for (const doc of docs) {
        if (typeof doc.id !== 'string' || doc.id.length === 0) throw new TypeError(`a document in ${this.name} needs a non-empty string id`);
        if (this.documents.has(doc.id)) throw new DuplicateKeyError(this.name, `id: ${doc.id}`);
        const stored = copyJson(doc);
        this.json.keep(stored, JSON.stringify(stored));
        const keys = this.claimUniqueKeys(stored, undefined);
        this.documents.set(stored.id, stored);
        for (const lookup of this.lookups.values()) lookup.add(stored);
        for (const index of this.ordered.values()) index.add(stored);
        writes.push(this.persistPut(stored, keys));
      }
    } finally {
      await this.persisted(Promise.all(writes));
    }
  }

  async findById(id: string, options?: { projection?: Projection }): Promise<T | null> {
    if (this.gate.closed) await this.gate.pass(this.name);
    const found = this.documents.get(id);
    return found ? this.present(found, options?.projection) : null;
  }

  async findOne(filter: Filter, options?: FindOptions): Promise<T | null> {
    const [first] = await this.find(filter, { ...options, limit: 1 });
    return first ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    if (this.gate.closed) await this.gate.pass(this.name);
    return this.selected(filter, options).map((document) => this.present(document, options.projection));
  }

  async findWithin(filter: Filter, options: FindOptions, maxBytes: number): Promise<BoundedFind<T>> {
    if (this.gate.closed) await this.gate.pass(this.name);
    const selected = this.selected(filter, options);
    const documents: T[] = [];
    let bytes = 0;
    for (const document of selected) {
      documents.push(this.present(document, options.projection));
      bytes += this.json.lengthOf(document);
      if (bytes > maxBytes) return { documents, stoppedByBytes: documents.length < selected.length };
    }
    return { documents, stoppedByBytes: false };
  }

  /** The stored documents a find answers, in order, before projection. */
  private selected(filter: Filter, options: FindOptions): T[] {
    const start = options.skip ?? 0;
    const end = options.limit ? start + options.limit : undefined;
    const plan = this.plan(filter, options.sort);
    // In index order a page is the first `end` matches: nothing after them is read.
    let matches = this.matching(filter, plan, plan?.sorted ? end : undefined);
    if (options.sort && !plan?.sorted) matches = sortDocuments(matches, options.sort, end);
    return matches.slice(start, end);
  }

  async count(filter: Filter = {}): Promise<number> {
    if (this.gate.closed) await this.gate.pass(this.name);
    return this.matching(filter, this.plan(filter)).length;
  }

  async updateOne(filter: Filter, modifier: UpdateModifier, options?: { upsert?: boolean }): Promise<T | null> {
    this.writerUnlessRefused();
    assertSupportedModifier(modifier);
    const [current] = this.matching(filter, this.plan(filter), 1);
    if (current) {
      const next = this.applyModifier(current, modifier);
      if (next !== current) await this.replace(current, next);
      return copyJson(next);
    }
    if (!options?.upsert) return null;
    const seed = equalityFields(filter);
    if (typeof seed.id !== 'string') throw new TypeError('an upsert filter must name the document id');
    const created = this.applyModifier(seed as T, modifier);
    await this.insertOne(created);
    return copyJson(created);
  }

  async updateMany(filter: Filter, modifier: UpdateModifier): Promise<number> {
    this.writerUnlessRefused();
    assertSupportedModifier(modifier);
    const writes: Promise<void>[] = [];
    let modified = 0;
    try {
      for (const current of this.matching(filter, this.plan(filter))) {
        const next = this.applyModifier(current, modifier);
        if (next === current) continue;
        writes.push(this.replace(current, next));
        modified += 1;
      }
    } finally {
      await this.persisted(Promise.all(writes));
    }
    return modified;
  }

  async deleteMany(filter: Filter): Promise<number> {
    const writer = this.writerUnlessRefused();
    const doomed = this.matching(filter, this.plan(filter));
    const writes = doomed.map((document) => {
      this.documents.delete(document.id);
      const keys = this.releaseUniqueKeys(document);
      for (const lookup of this.lookups.values()) lookup.remove(document);
      for (const index of this.ordered.values()) index.remove(document);
      return writer.del(document.id, keys);
    });
    await this.persisted(Promise.all(writes));
    return doomed.length;
  }

  async ensureIndex(spec: IndexSpec): Promise<void> {
    if (this.indexes.some((existing) => sameKeys(existing, spec))) return;
    const writer = this.writerOrThrow();
    const normalized: IndexSpec = { keys: { ...spec.keys }, ...(spec.unique ? { unique: true } : {}) };
    if (normalized.unique) this.uniqueIndexes.push(buildUniqueIndex(this.name, normalized, this.documents.values()));
    this.indexes.push(normalized);
    this.addLookup(normalized);
    // A store turned read-only (its log failed) still indexes in memory: an index changes no
    // document, reads ensure theirs, and the next start ensures it again.
    if (writer.refusal()) return;
    await this.persisted(writer.index(normalized));
  }

  /** The documents matching `filter`, read through `plan` when there is one; at most `limit`. */
  private matching(filter: Filter, plan: OrderedPlan | undefined, limit?: number): T[] {
    const matches = new Matches<T>(plan ? plan.residual : filter, limit);
    if (plan) this.orderedFor(plan.spec).visit(plan.bounds, plan.reverse, (document) => matches.offer(document));
    else for (const document of this.candidates(filter)) if (matches.offer(document)) break;
    return matches.found;
  }

  /**
   * An equality on id or on an indexed field needs no scan: of the equalities the filter holds (at
   * its top level or in a top-level `$and`), the one with the fewest holders gives the candidates.
   * Anything else walks every document.
   */
  private candidates(filter: Filter): Iterable<T> {
    if (typeof filter.id === 'string') return [this.documents.get(filter.id)].filter((d): d is T => d !== undefined);
    const clauses = [filter, ...(Array.isArray(filter.$and) ? (filter.$and as unknown[]).filter((arm): arm is Filter => arm !== null && typeof arm === 'object') : [])];
    let fewest: ReadonlySet<string> | undefined;
    for (const clause of clauses) {
      for (const field of Object.keys(clause)) {
        if (!this.lookupFields.has(field)) continue;
        const ids = this.lookupFor(field).candidates(clause);
        if (ids && (fewest === undefined || ids.size < fewest.size)) fewest = ids;
      }
    }
    return fewest ? [...fewest].map((id) => this.documents.get(id) as T) : this.documents.values();
  }

  /** An ordered index that narrows this read, unless the id alone finds the document. */
  private plan(filter: Filter, sort?: FindOptions['sort']): OrderedPlan | undefined {
    if (typeof filter.id === 'string') return undefined;
    const plan = planOrderedScan(this.indexes, filter, sort);
    return plan && this.orderedFor(plan.spec).usable ? plan : undefined;
  }

  private orderedFor(spec: IndexSpec): OrderedIndex<T> {
    let index = this.ordered.get(spec);
    if (!index) {
      index = new OrderedIndex(spec, this.documents.values());
      this.ordered.set(spec, index);
    }
    return index;
  }

  private addLookup(spec: IndexSpec): void {
    for (const field of Object.keys(spec.keys)) if (field !== 'id' && !field.includes('.')) this.lookupFields.add(field);
  }

  private lookupFor(field: string): LookupIndex {
    let lookup = this.lookups.get(field);
    if (!lookup) {
      lookup = new LookupIndex(field);
      for (const document of this.documents.values()) lookup.add(document);
      this.lookups.set(field, lookup);
    }
    return lookup;
  }

  /** A stored document's JSON, not kept when made for this call (see StoredJson). */
  jsonOf(document: T): string {
    return this.json.of(document);
  }

  private present(document: T, projection: Projection | undefined): T {
    if (!projection || Object.keys(projection).length === 0) return copyJson(document);
    const topLevel = projectTopLevel(document, projection);
    if (topLevel) return topLevel as T;
    const [projected] = new Query({}, QUERY_OPTIONS).find<T>([document], projection as never).all();
    return copyJson(projected as T);
  }

  /** The document after the modifier, or the same object when nothing changed. */
  private applyModifier(current: T, modifier: UpdateModifier): T {
    const next = applyUpdate(current, modifier);
    const json = JSON.stringify(next);
    if (json === this.json.of(current)) return current;
    this.json.keep(next, json);
    return next;
  }

  private async replace(current: T, next: T): Promise<void> {
    const keys = this.claimUniqueKeys(next, current);
    for (const lookup of this.lookups.values()) lookup.replace(current, next);
    for (const index of this.ordered.values()) index.replace(current, next);
    this.documents.set(next.id, next);
    await this.persisted(this.persistPut(next, keys));
  }

  /**
   * Checks every unique index for `next`, then moves its keys over from `previous`. Answers the
   * keys it took and gave up, for the log: a write taking a key an open section gave up must
   * reach the disk with that section (StoreLog).
   */
  private claimUniqueKeys(next: T, previous: T | undefined): UniqueKeyChange | undefined {
    if (this.uniqueIndexes.length === 0) return undefined;
    const claims = this.uniqueIndexes.map((index) => ({ index, key: indexKey(index.spec, next) }));
    for (const { index, key } of claims) {
      const owner = index.owners.get(key);
      if (owner !== undefined && owner !== next.id) throw duplicateKey(this.name, index.spec, key);
    }
    const change: UniqueKeyChange = { claimed: [], freed: [] };
    for (const { index, key } of claims) {
      if (previous) {
        const before = indexKey(index.spec, previous);
        if (before === key) continue;
        if (releaseKey(index, previous, before)) change.freed.push(index.name + before);
      }
      index.owners.set(key, next.id);
      change.claimed.push(index.name + key);
    }
    return change;
  }

  /** Gives up the unique keys of `document`, deleted: the keys given up, for the log. */
  private releaseUniqueKeys(document: T): UniqueKeyChange | undefined {
    if (this.uniqueIndexes.length === 0) return undefined;
    const change: UniqueKeyChange = { claimed: [], freed: [] };
    for (const index of this.uniqueIndexes) {
      const key = indexKey(index.spec, document);
      if (releaseKey(index, document, key)) change.freed.push(index.name + key);
    }
    return change;
  }

  /** A document's log line from its JSON, which its write has just made. */
  private persistPut(document: T, keys: UniqueKeyChange | undefined): Promise<void> {
    return this.writerOrThrow().put(document.id, this.json.of(document), keys);
  }

  private writerOrThrow(): CollectionWriter {
    if (!this.writer) throw new Error(`collection ${this.name} has no log attached`);
    return this.writer;
  }

  /** The writer, unless the log refuses writes: then the write is refused before it changes memory. */
  private writerUnlessRefused(): CollectionWriter {
    const writer = this.writerOrThrow();
    const refusal = writer.refusal();
    if (refusal) throw new StoreUnavailableError(this.name, refusal);
    return writer;
  }

  /** Waits for `write` to reach the disk; the log's refusal (it failed under the write) is StoreUnavailableError, not a raw I/O error. */
  private async persisted(write: Promise<unknown>): Promise<void> {
    try {
      await write;
    } catch (error) {
      throw error !== undefined && error === this.writer?.refusal() ? new StoreUnavailableError(this.name, error) : error;
    }
  }
}

/**
 * The DocumentStore port: named collections of JSON documents keyed by a string `id`, with
 * MongoDB query, projection and update-modifier semantics. Every adapter (MongoDB, embedded)
 * gives the same answers; `contract.ts` is the one suite that proves it.
 */

/** A MongoDB-style query filter (`{ a: 1, 'b.c': { $gt: 2 }, $or: [...] }`). */
export type Filter = Record<string, unknown>;

/** A MongoDB-style update modifier (`{ $set: {...}, $inc: {...} }`). */
export type UpdateModifier = Record<string, Record<string, unknown>>;

export type SortSpec = Record<string, 1 | -1>;

/** Inclusion (`{ a: 1 }`) or exclusion (`{ changes: 0 }`) projection; never mixed. */
export type Projection = Record<string, 0 | 1>;

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
  projection?: Projection;
}

export interface IndexSpec {
  keys: Record<string, 1 | -1>;
  unique?: boolean;
}

export interface StoredDocument {
  id: string;
  [field: string]: unknown;
}

/** What `findWithin` read: the documents in order, and whether the byte bound stopped it before `limit` or the last match. */
export interface BoundedFind<T> {
  documents: T[];
  stoppedByBytes: boolean;
}

export interface Collection<T extends StoredDocument = StoredDocument> {
  readonly name: string;
  /** Inserts one document. Throws `DuplicateKeyError` when its id or a unique index clashes. */
  insertOne(doc: T): Promise<void>;
  /** Inserts many documents in order; stops at the first duplicate with `DuplicateKeyError`. */
  insertMany(docs: T[]): Promise<void>;
  findById(id: string, options?: { projection?: Projection }): Promise<T | null>;
  findOne(filter: Filter, options?: FindOptions): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  /**
   * `find`, stopping after the document that brings what it read past `maxBytes` (the documents as
   * stored: JSON characters on the embedded store, BSON bytes on MongoDB); at least one is read. It
   * bounds what a read of large documents holds, where `limit` alone would hold `limit` of them.
   */
  findWithin(filter: Filter, options: FindOptions, maxBytes: number): Promise<BoundedFind<T>>;
  count(filter?: Filter): Promise<number>;
  /**
   * Atomically applies `modifier` to the first document matching `filter` and returns it as it is
   * after the update, or null when nothing matched. With `upsert`, a missing document is created
   * from the filter's equality fields plus the modifier (the filter must name `id`).
   */
  updateOne(filter: Filter, modifier: UpdateModifier, options?: { upsert?: boolean }): Promise<T | null>;
  /** Applies `modifier` to every matching document; answers how many were modified. */
  updateMany(filter: Filter, modifier: UpdateModifier): Promise<number>;
  /** Removes every matching document; answers how many were removed. */
  deleteMany(filter: Filter): Promise<number>;
  /** Creates the index if it does not exist yet (idempotent). */
  ensureIndex(spec: IndexSpec): Promise<void>;
}

/** What an online backup wrote. */
export interface BackupSummary {
  /** The backup's directory (absolute): start with `DATA_DIR` set to it to restore. */
  directory: string;
  bytes: number;
  /** Log lines written: one per document and one per index. */
  records: number;
  durationMs: number;
}

/**
 * The store as one atomic section sees it: writes made through its collections belong to the
 * section. A DocumentStore is one too, outside any section, so code that writes through a
 * `StoreSection` it is handed works inside a section and outside one alike.
 */
export interface StoreSection {
  /** Which adapter serves (`mongodb` or `embedded`), for health reports. */
  readonly kind: 'mongodb' | 'embedded';
  collection<T extends StoredDocument = StoredDocument>(name: string): Collection<T>;
  /**
   * Runs `work` with a section whose writes (in any collections) are one logical change. The
   * embedded store writes them as one log line: after a crash all of them are there or none, and
   * the section resolves once that line is on disk. Only writes through the section `work` is
   * handed belong to it: a write through any other handle (the store itself, a collection taken
   * before) is a write of its own. Inside a section, `atomically` joins it. MongoDB runs the
   * writes one after another as they are issued, without a transaction (the MongoDB-compatible
   * test server has none), so callers keep each step idempotent and repairable (the outbox and
   * its sweeper). Neither rolls back: a write that throws leaves the earlier ones applied.
   *
   * The section is an explicit handle rather than an ambient (AsyncLocalStorage) context: while
   * one is enabled every promise of the process pays its hooks, and under write load a section is
   * always open (BENCHMARKS.md, issue 26).
   */
  atomically<R>(work: (section: StoreSection) => Promise<R>): Promise<R>;
}

export interface DocumentStore extends StoreSection {
  /**
   * Removes a collection with its documents and indexes, so a store that grew by many collections
   * (every purged project's) shrinks back: the embedded store forgets it (its log keeps no line of
   * it after the next compaction), MongoDB drops it (its files go); a collection that does not
   * exist is no error. Collection handles taken before stay usable: a later write makes the
   * collection anew, empty and without indexes. Not part of an atomic section; call it when
   * nothing writes to the collection any more.
   */
  dropCollection(name: string): Promise<void>;
  /**
   * Embedded store only (MongoDB has its own tools): writes a consistent copy of every collection
   * into `directory` (created; it must be empty) while writes go on, by default a new directory
   * under `<dataDir>/backups`. Every write acknowledged before the call is in it.
   */
  backup?(directory?: string): Promise<BackupSummary>;
  /** Lightweight liveness probe for health checks. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export class DuplicateKeyError extends Error {
  constructor(
    readonly collection: string,
    readonly key: string,
  ) {
    super(`duplicate key in ${collection}: ${key}`);
    this.name = 'DuplicateKeyError';
  }
}

/** The store cannot be reached right now (server down or restarting, connection lost): worth retrying shortly. */
export class StoreUnavailableError extends Error {
  constructor(
    readonly collection: string,
    cause: unknown,
  ) {
    super(`the store cannot be reached (collection ${collection}): ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'StoreUnavailableError';
  }
}

export class InvalidModifierError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidModifierError';
  }
}

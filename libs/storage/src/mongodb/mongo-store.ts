import {
  BSON,
  MongoClient,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  type Collection as DriverCollection,
  type Document,
  type FindCursor,
} from 'mongodb';
import { assertSupportedModifier } from '../modifier';
import { DuplicateKeyError, StoreUnavailableError, type BoundedFind, type Collection, type DocumentStore, type Filter, type FindOptions, type IndexSpec, type Projection, type StoredDocument, type UpdateModifier } from '../port';
import { fromMongoDocument, toMongoDocument, toMongoFilter, toMongoKeys, toMongoProjection, toMongoSort } from './id-mapping';

export interface MongoStoreOptions {
  url: string;
  database: string;
  /** How long an operation waits for a reachable server before failing (default 5 s). */
  serverSelectionTimeoutMs?: number;
}

const DUPLICATE_KEY = 11000;

/** MongoDB says 11000; FerretDB on SQLite reports some unique violations as an InternalError. */
function isDuplicateKey(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === DUPLICATE_KEY || (error instanceof MongoServerError && typeof message === 'string' && message.includes('UNIQUE constraint failed'));
}

/** Node's own socket errors, which the driver passes on unwrapped for a write on a connection the server has closed. */
const socketErrorCodes = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED']);

/** The driver's errors for a server it cannot reach: down, restarting, or the connection dropped. */
function isUnreachable(error: unknown): boolean {
  return (
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError ||
    socketErrorCodes.has(String((error as { code?: unknown } | undefined)?.code))
  );
}

/** Driver errors as the port's: a unique violation, an unreachable server; anything else as it is. */
function rethrow(collection: string, error: unknown): never {
  if (isDuplicateKey(error)) {
    const keyValue = (error as MongoServerError).keyValue;
    throw new DuplicateKeyError(collection, keyValue ? JSON.stringify(toMongoKeys(keyValue)).replace('"_id"', '"id"') : 'unique index');
  }
  if (isUnreachable(error)) throw new StoreUnavailableError(collection, error);
  throw error;
}

class MongoCollection<T extends StoredDocument> implements Collection<T> {
  constructor(private readonly driver: DriverCollection<Document>) {}

  get name(): string {
    return this.driver.collectionName;
  }

  async insertOne(doc: T): Promise<void> {
    try {
      await this.driver.insertOne(toMongoDocument(doc));
    } catch (error) {
      rethrow(this.name, error);
    }
  }

  async insertMany(docs: T[]): Promise<void> {
    if (docs.length === 0) return;
    try {
      await this.driver.insertMany(docs.map(toMongoDocument), { ordered: true });
    } catch (error) {
      rethrow(this.name, error);
    }
  }

  async findById(id: string, options?: { projection?: Projection }): Promise<T | null> {
    return this.findOne({ id }, options);
  }

  async findOne(filter: Filter, options?: FindOptions): Promise<T | null> {
    const [first] = await this.find(filter, { ...options, limit: 1 });
    return first ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    try {
      const documents = await this.cursor(filter, options).toArray();
      return documents.map((document) => fromMongoDocument<T>(document));
    } catch (error) {
      return rethrow(this.name, error);
    }
  }

  async findWithin(filter: Filter, options: FindOptions, maxBytes: number): Promise<BoundedFind<T>> {
    // Raw BSON: a document's size is its buffer's length, known before it is decoded (as the driver would, with its defaults).
    const cursor = this.cursor(filter, options, { raw: true });
    const documents: T[] = [];
    let bytes = 0;
    try {
      for (let raw = await cursor.next(); raw !== null; raw = await cursor.next()) {
        const buffer = raw as unknown as Uint8Array;
        documents.push(fromMongoDocument<T>(BSON.deserialize(buffer)));
        bytes += buffer.byteLength;
        // More may follow while the batch holds some or the server keeps the cursor open (an empty last batch reads as more: the caller asks once again).
        if (bytes > maxBytes) return { documents, stoppedByBytes: cursor.bufferedCount() > 0 || !cursor.closed };
      }
      return { documents, stoppedByBytes: false };
    } catch (error) {
      return rethrow(this.name, error);
    } finally {
      await cursor.close();
    }
  }

  private cursor(filter: Filter, options: FindOptions, driverOptions?: { raw: true }): FindCursor<Document> {
    let cursor = this.driver.find(toMongoFilter(filter), driverOptions);
    if (options.projection && Object.keys(options.projection).length > 0) cursor = cursor.project(toMongoProjection(options.projection));
    if (options.sort) cursor = cursor.sort(toMongoSort(options.sort));
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit) cursor = cursor.limit(options.limit);
    return cursor;
  }

  async count(filter: Filter = {}): Promise<number> {
    try {
      return await this.driver.countDocuments(toMongoFilter(filter));
    } catch (error) {
      return rethrow(this.name, error);
    }
  }

  async updateOne(filter: Filter, modifier: UpdateModifier, options?: { upsert?: boolean }): Promise<T | null> {
    assertSupportedModifier(modifier);
    try {
      const document = await this.driver.findOneAndUpdate(toMongoFilter(filter), modifier, { returnDocument: 'after', upsert: options?.upsert ?? false });
      return document ? fromMongoDocument<T>(document) : null;
    } catch (error) {
      return rethrow(this.name, error);
    }
  }

  async updateMany(filter: Filter, modifier: UpdateModifier): Promise<number> {
    assertSupportedModifier(modifier);
    try {
      const result = await this.driver.updateMany(toMongoFilter(filter), modifier);
      return result.modifiedCount;
    } catch (error) {
      return rethrow(this.name, error);
    }
  }

  async deleteMany(filter: Filter): Promise<number> {
    try {
      const result = await this.driver.deleteMany(toMongoFilter(filter));
      return result.deletedCount;
    } catch (error) {
      return rethrow(this.name, error);
    }
  }

  async ensureIndex(spec: IndexSpec): Promise<void> {
    const keys = toMongoKeys(spec.keys);
    // `_id` alone is MongoDB's own unique primary index.
    if (Object.keys(keys).length === 1 && '_id' in keys) return;
    try {
      await this.driver.createIndex(keys, { unique: spec.unique ?? false });
    } catch (error) {
      rethrow(this.name, error);
    }
  }
}

/** The MongoDB DocumentStore on the official driver. Connects before answering, so a bad URL fails at start. */
export async function createMongoStore(options: MongoStoreOptions): Promise<DocumentStore> {
  const client = new MongoClient(options.url, { serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 5000, ignoreUndefined: true });
  await client.connect();
  const database = client.db(options.database);
  const store: DocumentStore = {
    kind: 'mongodb',
    collection<T extends StoredDocument>(name: string): Collection<T> {
      return new MongoCollection<T>(database.collection(name));
    },
    // Sequential, no transaction: see StoreSection.atomically.
    atomically: (work) => work(store),
    async dropCollection(name) {
      try {
        // No error for a collection that does not exist (the driver's answer then differs by server version).
        await database.collection(name).drop();
      } catch (error) {
        rethrow(name, error);
      }
    },
    async ping() {
      try {
        await database.command({ ping: 1 }, { timeoutMS: 2000 });
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await client.close();
    },
  };
  return store;
}

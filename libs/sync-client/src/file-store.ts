import { mkdir, open, readdir, readFile, rename, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { lockDirectory } from './directory-lock.js';
import { MemoryStore } from './local-store.js';

export { StoreLockedError } from './directory-lock.js';

export interface FileStoreOptions {
  /**
   * The journal is compacted into the snapshots once it is larger than this and than the
   * snapshots themselves (so compaction costs stay proportional to the writes; default 4 MiB).
   */
  compactAfterBytes?: number;
}

/** One line of the journal: a put, a delete or a clear of one object store. */
type JournalEntry = ['put', string, string, unknown] | ['delete', string, string] | ['clear', string];

const JOURNAL = 'journal.log';
const snapshotName = (storeName: string) => `${encodeURIComponent(storeName)}.json`;

/** Applies one journal entry to the in-memory stores (replaying the journal is idempotent). */
function applyEntry(stores: Map<string, Map<string, unknown>>, entry: JournalEntry): void {
  const [kind, storeName] = entry;
  let store = stores.get(storeName);
  if (!store) stores.set(storeName, (store = new Map()));
  if (kind === 'put') store.set(entry[2], entry[3]);
  else if (kind === 'delete') store.delete(entry[2]);
  else store.clear();
}

/** Durable writes of a file's new contents: temporary file, fsync, rename. */
async function writeAtomically(target: string, contents: string): Promise<void> {
  const temporary = `${target}.${process.pid}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(contents);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, target);
}

/**
 * A durable store for Node. Each write is appended to `journal.log` (one JSON line) and a `put` or
 * `delete` resolves once its line is synced to disk; writes asked for while a sync is under way
 * are appended and synced together by the next one (group commit), so a pulled page or a pushed
 * batch costs one synchronized write, and a write's cost does not grow with the store. The journal
 * is compacted into one JSON snapshot per object store (written atomically: temporary file, fsync,
 * rename) once it outgrows them; replaying it over the snapshots is idempotent, so a crash at any
 * point leaves every write whose promise resolved, and a line torn by a crash is dropped at open.
 * One writer per directory: `open` takes a lock file and refuses a second opener (StoreLockedError)
 * until `close`.
 */
export class FileStore extends MemoryStore {
  /** Lines waiting for the next append, and who waits for them. */
  private pending: string[] = [];
  private waiting: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  private writing: Promise<void> | undefined;
  private journalBytes = 0;
  private snapshotBytes = 0;
  private closed: Promise<void> | undefined;

  private constructor(
    private readonly directory: string,
    private readonly journal: FileHandle,
    private readonly unlock: () => Promise<void>,
    private readonly compactAfterBytes: number,
  ) {
    super();
  }

  /**
   * Opens (creating if needed) the directory, locks it and loads every object store in it (its
   * snapshot, then the journal). Rejects with StoreLockedError while another FileStore (this
   * process or another) has it open.
   */
  static async open(directory: string, options: FileStoreOptions = {}): Promise<FileStore> {
    await mkdir(directory, { recursive: true });
    const unlock = await lockDirectory(directory);
    try {
      const stores = new Map<string, Map<string, unknown>>();
      let snapshotBytes = 0;
      for (const name of await readdir(directory)) {
        if (!name.endsWith('.json')) continue;
        const text = await readFile(join(directory, name), 'utf8');
        snapshotBytes += text.length;
        stores.set(decodeURIComponent(name.slice(0, -'.json'.length)), new Map(Object.entries(JSON.parse(text) as Record<string, unknown>)));
      }
      const journalPath = join(directory, JOURNAL);
      const validBytes = await replayJournal(journalPath, stores);
      const journal = await open(journalPath, 'a+');
      // A line torn by a crash was never acknowledged: cut it off so new lines follow whole ones.
      if ((await journal.stat()).size > validBytes) await journal.truncate(validBytes);
      const store = new FileStore(directory, journal, unlock, options.compactAfterBytes ?? 4 * 1024 * 1024);
      for (const [name, entries] of stores) store.stores.set(name, entries);
      store.journalBytes = validBytes;
      store.snapshotBytes = snapshotBytes;
      return store;
    } catch (error) {
      await unlock();
      throw error;
    }
  }

  override put<T>(storeName: string, key: string, value: T): Promise<void> {
    let copy: T;
    try {
      copy = structuredClone(value);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.write(['put', storeName, key, copy]);
  }

  override delete(storeName: string, key: string): Promise<void> {
    return this.write(['delete', storeName, key]);
  }

  override clear(storeName: string): Promise<void> {
    return this.write(['clear', storeName]);
  }

  /** Waits for pending writes, then releases the directory. */
  override close(): Promise<void> {
    this.closed ??= (async () => {
      await this.writing;
      await this.journal.close();
      await this.unlock();
    })();
    return this.closed;
  }

  /** Serialises first: a value JSON cannot hold (a BigInt, a cycle) rejects the write and changes nothing, in memory or on disk. */
  private write(entry: JournalEntry): Promise<void> {
    let line: string;
    try {
      line = `${JSON.stringify(entry)}\n`;
    } catch (error) {
      return Promise.reject(error);
    }
    applyEntry(this.stores, entry);
    this.pending.push(line);
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.writing ??= this.writeLoop();
    return done;
  }

  private async writeLoop(): Promise<void> {
    // Let the current burst of writes (one pulled page, one pushed batch) join before syncing.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.waiting.length > 0) {
      const text = this.pending.splice(0).join('');
      const batch = this.waiting.splice(0);
      try {
        await this.journal.appendFile(text);
        await this.journal.datasync();
        this.journalBytes += Buffer.byteLength(text);
        if (this.journalBytes > Math.max(this.compactAfterBytes, this.snapshotBytes)) await this.compact();
        for (const waiter of batch) waiter.resolve();
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
    }
    this.writing = undefined;
  }

  /** Writes every object store's snapshot, makes the renames durable, then empties the journal. */
  private async compact(): Promise<void> {
    let snapshotBytes = 0;
    for (const [name, entries] of this.stores) {
      const text = JSON.stringify(Object.fromEntries(entries));
      snapshotBytes += text.length;
      await writeAtomically(join(this.directory, snapshotName(name)), text);
    }
    const directory = await open(this.directory, 'r');
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
    await this.journal.truncate(0);
    await this.journal.datasync();
    this.journalBytes = 0;
    this.snapshotBytes = snapshotBytes;
  }
}

/** Applies the journal's whole lines to `stores`; answers how many bytes they take (a torn last line is left out). */
async function replayJournal(path: string, stores: Map<string, Map<string, unknown>>): Promise<number> {
  const exists = await stat(path).then(
    () => true,
    () => false,
  );
  if (!exists) return 0;
  const text = await readFile(path, 'utf8');
  let offset = 0;
  for (;;) {
    const end = text.indexOf('\n', offset);
    if (end === -1) break;
    applyEntry(stores, JSON.parse(text.slice(offset, end)) as JournalEntry);
    offset = end + 1;
  }
  return Buffer.byteLength(text.slice(0, offset));
}

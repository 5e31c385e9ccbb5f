import { constants } from 'node:fs';
import { open, readFile, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/** One line of a collection's log. Replaying the lines in order rebuilds the collection. */
export type LogRecord = { put: Record<string, unknown> } | { del: string } | { index: { keys: Record<string, 1 | -1>; unique?: boolean } };

export class CorruptLogError extends Error {
  constructor(file: string, line: number) {
    super(`${file} is corrupt at line ${line}: the line is not JSON and valid lines follow it`);
    this.name = 'CorruptLogError';
  }
}

/**
 * Reads a log. A kill in the middle of a write can leave a torn tail (a partial last line, or
 * after a power loss, garbage); that tail was never acknowledged, so it is cut off. Anything
 * unreadable followed by readable lines is real corruption and stops the open.
 */
export async function readLog<Line extends object = LogRecord>(file: string): Promise<{ records: Line[]; validBytes: number; tornBytes: number }> {
  let content: Buffer;
  try {
    content = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], validBytes: 0, tornBytes: 0 };
    throw error;
  }
  const records: Line[] = [];
  let offset = 0;
  let validBytes = 0;
  let firstBadLine: number | undefined;
  let lineNumber = 0;
  while (offset < content.length) {
    const newline = content.indexOf(10, offset);
    const end = newline === -1 ? content.length : newline;
    lineNumber += 1;
    const record = newline === -1 ? undefined : parseRecord<Line>(content.subarray(offset, end));
    if (record === undefined) {
      firstBadLine ??= lineNumber;
    } else {
      if (firstBadLine !== undefined) throw new CorruptLogError(file, firstBadLine);
      records.push(record);
      validBytes = end + 1;
    }
    offset = end + 1;
  }
  return { records, validBytes, tornBytes: content.length - validBytes };
}

function parseRecord<Line extends object>(line: Buffer): Line | undefined {
  if (line.length === 0) return undefined;
  try {
    const value = JSON.parse(line.toString('utf8')) as unknown;
    return value !== null && typeof value === 'object' ? (value as Line) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * With O_DSYNC each write returns once its data is on disk: one call where a write and an
 * fdatasync were two, which made group commit markedly cheaper. Where the platform has no
 * O_DSYNC (Windows), each write is followed by fdatasync instead.
 */
const O_DSYNC: number = constants.O_DSYNC ?? 0;

interface PendingWrite {
  line: string;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * An append-only JSON-lines file with group commit: appends queued while a write is in flight go
 * out together in one synchronized write (O_DSYNC), and each append resolves only once its line is on
 * disk. When dead lines outnumber live ones the log is rewritten from a snapshot (write a temp
 * file, sync it, rename it over the log, sync the directory). The embedded key-value store
 * (libs/kv) keeps its own line type in the same kind of log.
 */
export class CollectionLog<Line extends object = LogRecord> {
  private handle: FileHandle | undefined;
  private pending: PendingWrite[] = [];
  private flushing: Promise<void> | undefined;
  private failure: Error | undefined;
  private lineCount: number;

  constructor(
    private readonly file: string,
    private readonly options: { fsync: boolean; validBytes: number; lineCount: number; snapshot: () => Line[]; liveCount: () => number },
  ) {
    this.lineCount = options.lineCount;
  }

  append(record: Line): Promise<void> {
    return this.appendSerialized(JSON.stringify(record));
  }

  /** Appends a record already serialized as JSON (one line, no newline). */
  appendSerialized(json: string): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.push({ line: `${json}\n`, resolve, reject });
      this.flushing ??= this.flush().finally(() => {
        this.flushing = undefined;
      });
    });
  }

  /** Waits for every queued append, then closes the file; later appends are refused. */
  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.failure ??= new Error('the embedded store is closed');
    await this.handle?.close();
    this.handle = undefined;
  }

  private async flush(): Promise<void> {
    // Let appends issued in the same tick join this batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        const handle = await this.openForAppend();
        await handle.write(batch.map((write) => write.line).join(''));
        if (this.options.fsync && O_DSYNC === 0) await handle.datasync();
        this.lineCount += batch.length;
        for (const write of batch) write.resolve();
      } catch (error) {
        // The memory state may now be ahead of the disk: refuse every further write.
        this.failure = error as Error;
        for (const write of [...batch, ...this.pending]) write.reject(this.failure);
        this.pending = [];
        return;
      }
      if (this.lineCount > 1000 && this.lineCount > 2 * this.options.liveCount()) await this.compact();
    }
  }

  private async openForAppend(): Promise<FileHandle> {
    if (!this.handle) {
      const flags = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | (this.options.fsync ? O_DSYNC : 0);
      this.handle = await open(this.file, flags);
      const { size } = await this.handle.stat();
      // Cut off a torn tail left by a crash before appending after it.
      if (size > this.options.validBytes) await this.handle.truncate(this.options.validBytes);
    }
    return this.handle;
  }

  /** Rewrites the log from a snapshot of the live state (also called at open by the key-value store). */
  async compact(): Promise<void> {
    const records = this.options.snapshot();
    const text = records.map((record) => `${JSON.stringify(record)}\n`).join('');
    const temporary = `${this.file}.compact`;
    const output = await open(temporary, 'w');
    try {
      await output.write(text);
      await output.datasync();
    } finally {
      await output.close();
    }
    await this.handle?.close();
    this.handle = undefined;
    await rename(temporary, this.file);
    await syncDirectory(dirname(this.file));
    this.options.validBytes = Buffer.byteLength(text);
    this.lineCount = records.length;
  }
}

/** Makes a rename durable: the directory entry itself must reach the disk. */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

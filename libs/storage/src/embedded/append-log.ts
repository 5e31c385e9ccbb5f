import { constants } from 'node:fs';
import { open, readFile, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

export class CorruptLogError extends Error {
  constructor(
    readonly file: string,
    readonly offset: number,
    line: number,
  ) {
    super(`${file} is corrupt at byte offset ${offset} (line ${line}): the line is not JSON and valid lines follow it`);
    this.name = 'CorruptLogError';
  }
}

/**
 * Reads a log. A kill in the middle of a write can leave a torn tail (a partial last line, or
 * after a power loss, garbage); that tail was never acknowledged, so it is cut off. Anything
 * unreadable followed by readable lines is real corruption and stops the open, naming the file
 * and the byte offset of the first bad line.
 */
export async function readLog<Line extends object>(file: string): Promise<{ records: Line[]; validBytes: number; tornBytes: number }> {
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
  let firstBad: { offset: number; line: number } | undefined;
  let lineNumber = 0;
  while (offset < content.length) {
    const newline = content.indexOf(10, offset);
    const end = newline === -1 ? content.length : newline;
    lineNumber += 1;
    const record = newline === -1 ? undefined : parseRecord<Line>(content.subarray(offset, end));
    if (record === undefined) {
      firstBad ??= { offset, line: lineNumber };
    } else {
      if (firstBad !== undefined) throw new CorruptLogError(file, firstBad.offset, firstBad.line);
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

/** Snapshot text goes out in pieces of about this size, so a large store never becomes one string. */
const SNAPSHOT_CHUNK_BYTES = 1 << 20;

interface PendingWrite {
  line: string;
  resolve: () => void;
  reject: (error: Error) => void;
}

export interface AppendLogOptions {
  fsync: boolean;
  /** Bytes of the file that hold whole lines (from `readLog`): anything after them is cut off. */
  validBytes: number;
  lineCount: number;
  /** The JSON lines (no newline) that rebuild the current state, taken at one instant. */
  snapshot: () => Iterable<string> | Promise<Iterable<string>>;
  liveCount: () => number;
}

/**
 * An append-only JSON-lines file with group commit: appends queued while a write is in flight go
 * out together in one synchronized write (O_DSYNC), and each append resolves only once its line is on
 * disk. When dead lines outnumber live ones the log is rewritten from a snapshot (write a temp
 * file, sync it, rename it over the log, sync the directory). The embedded document store keeps
 * all its collections in one such log; the embedded key-value store (libs/kv) keeps its own.
 */
export class AppendLog {
  private handle: FileHandle | undefined;
  private pending: PendingWrite[] = [];
  private flushing: Promise<void> | undefined;
  private failure: Error | undefined;
  private lineCount: number;
  private validBytes: number;

  constructor(
    private readonly file: string,
    private readonly options: AppendLogOptions,
  ) {
    this.lineCount = options.lineCount;
    this.validBytes = options.validBytes;
  }

  append(record: object): Promise<void> {
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

  /** Bytes of the log on disk, as far as this process has written it. */
  get size(): number {
    return this.validBytes;
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
        const text = batch.map((write) => write.line).join('');
        await handle.write(text);
        if (this.options.fsync && O_DSYNC === 0) await handle.datasync();
        this.lineCount += batch.length;
        this.validBytes += Buffer.byteLength(text);
        for (const write of batch) write.resolve();
        if (this.lineCount > 1000 && this.lineCount > 2 * this.options.liveCount()) await this.compact();
      } catch (error) {
        // The memory state may now be ahead of the disk: refuse every further write.
        this.failure = error as Error;
        for (const write of this.pending) write.reject(this.failure);
        this.pending = [];
        for (const write of batch) write.reject(this.failure);
        return;
      }
    }
  }

  private async openForAppend(): Promise<FileHandle> {
    if (!this.handle) {
      const flags = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | (this.options.fsync ? O_DSYNC : 0);
      this.handle = await open(this.file, flags);
      const { size } = await this.handle.stat();
      // Cut off a torn tail left by a crash before appending after it.
      if (size > this.validBytes) await this.handle.truncate(this.validBytes);
    }
    return this.handle;
  }

  /** Rewrites the log from a snapshot of the live state (also called at open by the key-value store). */
  async compact(): Promise<void> {
    const { bytes, lines } = await writeLogFile(this.file, await this.options.snapshot());
    // The handle still points at the replaced file: the next append opens the new one.
    await this.handle?.close();
    this.handle = undefined;
    this.validBytes = bytes;
    this.lineCount = lines;
  }
}

/**
 * Writes `lines` to `<file>.compact` in pieces and syncs it; the caller renames it into place.
 * Stored documents are never changed in place, so lines made from a snapshot taken at one
 * instant stay consistent while the pieces go out.
 */
async function writeSnapshot(file: string, snapshot: Iterable<string>): Promise<{ bytes: number; lines: number }> {
  const output = await open(`${file}.compact`, 'w');
  let bytes = 0;
  let lines = 0;
  try {
    let chunk = '';
    for (const line of snapshot) {
      chunk += `${line}\n`;
      lines += 1;
      if (chunk.length >= SNAPSHOT_CHUNK_BYTES) {
        bytes += (await output.write(chunk)).bytesWritten;
        chunk = '';
      }
    }
    if (chunk.length > 0) bytes += (await output.write(chunk)).bytesWritten;
    await output.datasync();
  } finally {
    await output.close();
  }
  return { bytes, lines };
}

/** Writes a snapshot as a complete log at `file` (temp file, sync, rename, sync the directory). */
export async function writeLogFile(file: string, snapshot: Iterable<string>): Promise<{ bytes: number; lines: number }> {
  const written = await writeSnapshot(file, snapshot);
  await rename(`${file}.compact`, file);
  await syncDirectory(dirname(file));
  return written;
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

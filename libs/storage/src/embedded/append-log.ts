import { constants } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { COMPACT_RETRY_FIRST_MS, CompactionRetry } from './compaction-retry';
import { stderrReporter, type LogReporter } from './log-reporter';

/**
 * With O_DSYNC each write returns once its data is on disk: one call where a write and an
 * fdatasync were two, which made group commit markedly cheaper. Where the platform has no
 * O_DSYNC (Windows), each write is followed by fdatasync instead.
 */
const O_DSYNC: number = constants.O_DSYNC ?? 0;

/** Snapshot text goes out in pieces of about this size, so a large store never becomes one string. */
const SNAPSHOT_CHUNK_BYTES = 1 << 20;

/**
 * A log is also rewritten once it is more than twice the size it had after its last rewrite (or
 * at open) and past this many bytes. Counting lines alone, a log whose live lines are many and
 * small (history records, audit items, action runs) and whose dead ones are few and large (a big
 * document written again and again) grew without end: 41 MB of live data in a 663 MB log after
 * 1,500 writes of one 200 KB document, all of it read again at every start.
 */
export const DEFAULT_COMPACT_MIN_BYTES = 16 * 1024 * 1024;

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
  /**
   * The JSON lines (no newline) that rebuild the current state, taken at one instant. A snapshot
   * answered through a promise calls `taken` at that instant; one answered directly is taken then.
   */
  snapshot: (taken: () => void) => Iterable<string> | Promise<Iterable<string>>;
  /**
   * The live records the caller counts (documents, keys). Lines a snapshot writes beyond them (a
   * collection's indexes) are learned at each compaction and counted as live too.
   */
  liveCount: () => number;
  /** The size below which a log is never rewritten for its bytes alone (DEFAULT_COMPACT_MIN_BYTES). */
  compactMinBytes?: number;
  /** The first wait after a failed compaction before another may start (COMPACT_RETRY_FIRST_MS). */
  compactRetryMs?: number;
  /** Where trouble is reported (stderr when not given). */
  reporter?: LogReporter;
  /**
   * Called once, when the log starts refusing every write (not when it is closed). `durableBytes`:
   * the file's first bytes hold every acknowledged write and nothing else (after a failed append);
   * undefined when which file is the log is not known (after a failed swap).
   */
  onFailure?: (error: Error, durableBytes: number | undefined) => void;
  /** The clock compaction retries wait by (Date.now). */
  now?: () => number;
}

/**
 * An append-only JSON-lines file with group commit: appends queued while a write is in flight go
 * out together in one synchronized write (O_DSYNC), and each append resolves only once its line is on
 * disk. When dead lines outnumber live ones, or the log has more than doubled in bytes since it was
 * last rewritten (see DEFAULT_COMPACT_MIN_BYTES), the log is rewritten from a snapshot in the background
 * while appends go on: the snapshot goes to a temp file, then, with appends held for that moment
 * only, the lines written since the snapshot's instant are copied after it, the file is synced
 * and renamed over the log, and the directory synced. Replaying those lines again on top of the
 * snapshot is harmless (a put holds the whole document, a delete of a missing one does nothing).
 * A failed append refuses every later one, for good (the caller's memory may be ahead of the disk:
 * `onFailure` tells it how much of the file holds what); a failed compaction does so only when it
 * failed from the rename on, and otherwise is tried again later.
 * The embedded document store keeps all its collections in one such log; the embedded key-value
 * store (libs/kv) keeps its own.
 */
export class AppendLog {
  private handle: FileHandle | undefined;
  private pending: PendingWrite[] = [];
  private flushing: Promise<void> | undefined;
  private failure: Error | undefined;
  /** Where the file should have been cut after a refused batch, when cutting it failed too. */
  private uncut: number | undefined;
  private lineCount: number;
  private validBytes: number;
  /** The log's size after its last rewrite, or at open: past twice this the log is rewritten. */
  private rewrittenBytes: number;
  private readonly compactMinBytes: number;
  /** Where the batch being written starts (the end of the log while none is). */
  private batchStart: number;
  private writing: Promise<unknown> | undefined;
  private compacting: Promise<void> | undefined;
  /** Set while a compaction swaps the files: batches wait for it. */
  private swapping: Promise<void> | undefined;
  /** Lines the last snapshot wrote beyond `liveCount()` at its instant: live lines the caller does not count. */
  private uncountedLiveLines = 0;
  private readonly compactRetry: CompactionRetry;
  private readonly reporter: LogReporter;

  constructor(
    private readonly file: string,
    private readonly options: AppendLogOptions,
  ) {
    this.lineCount = options.lineCount;
    this.validBytes = options.validBytes;
    this.batchStart = options.validBytes;
    this.rewrittenBytes = options.validBytes;
    this.compactMinBytes = options.compactMinBytes ?? DEFAULT_COMPACT_MIN_BYTES;
    this.compactRetry = new CompactionRetry(options.compactRetryMs ?? COMPACT_RETRY_FIRST_MS, options.now ?? Date.now);
    this.reporter = options.reporter ?? stderrReporter;
  }

  append(record: object): Promise<void> {
    return this.appendSerialized(JSON.stringify(record));
  }

  /** Appends a record already serialized as JSON (one line, no newline). */
  appendSerialized(json: string): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.push({ line: `${json}\n`, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  /** Bytes of the log on disk, as far as this process has written it. */
  get size(): number {
    return this.validBytes;
  }

  /** False once the log refuses writes: after a failure (see `onFailure`) or close. */
  get writable(): boolean {
    return this.failure === undefined;
  }

  /** Why the log refuses writes (a failure, or close); undefined while it takes them. */
  get refusal(): Error | undefined {
    return this.failure;
  }

  /** Waits for every queued append and a running compaction, then closes the file; later appends are refused. */
  async close(): Promise<void> {
    while (this.flushing || this.compacting) await (this.flushing ?? this.compacting);
    this.failure ??= new Error('the embedded store is closed');
    await this.handle?.close();
    this.handle = undefined;
  }

  private async flush(): Promise<void> {
    try {
      // Let appends issued in the same tick join this batch.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        try {
          while (this.swapping) await this.swapping;
          // Encoded here: handing the file a string costs more of the event loop's time than a buffer.
          const bytes = Buffer.from(batch.map((write) => write.line).join(''));
          this.writing = this.writeBatch(bytes);
          await this.writing;
          this.writing = undefined;
          this.lineCount += batch.length;
          this.validBytes += bytes.length;
          this.batchStart = this.validBytes;
          for (const write of batch) write.resolve();
          if (!this.compacting && this.dueForCompaction()) {
            this.compacting = this.compact().finally(() => {
              this.compacting = undefined;
            });
          }
        } catch (error) {
          // The memory state may now be ahead of the disk: refuse every further write.
          const failure = this.refuseWrites(error as Error, this.validBytes);
          for (const write of this.pending) write.reject(failure);
          this.pending = [];
          for (const write of batch) write.reject(failure);
          return;
        }
      }
    } finally {
      // Cleared before the callers' continuations run: an append made as soon as one resolves starts the next flush.
      this.flushing = undefined;
    }
  }

  /**
   * Dead lines outnumber live ones, or the bytes have more than doubled since the last rewrite:
   * bytes matter as much as lines, since a few dead lines of a large document can outweigh many
   * small live ones. A log whose bytes are all live is rewritten for nothing once per doubling,
   * which keeps the cost of rewrites below the bytes written.
   */
  private dueForCompaction(): boolean {
    if (!this.compactRetry.allowed) return false;
    if (this.lineCount > 1000 && this.lineCount > 2 * (this.options.liveCount() + this.uncountedLiveLines)) return true;
    return this.validBytes > this.compactMinBytes && this.validBytes > 2 * this.rewrittenBytes;
  }

  /**
   * What the operator must do when a refused batch could not be cut off the file: its whole lines
   * would be replayed at the next start, bringing back writes that were answered as failed.
   */
  private uncutAdvice(validBytes: number): string {
    return `; the refused writes could not be cut off the file: before restarting, cut it to its first ${validBytes} bytes (truncate -s ${validBytes} ${this.file}), or they come back`;
  }

  /** Refuses every append from now on. Only the first failure is reported and handed to `onFailure`, and appends are refused with it. */
  private refuseWrites(error: Error, durableBytes: number | undefined): Error {
    if (!this.failure) {
      this.failure = error;
      this.reporter.error(
        { err: error, file: this.file },
        `embedded log ${this.file} refuses every write from now on (${error.message}); restart the process once the cause (a full disk, an I/O error) is fixed${this.uncut === undefined ? '' : this.uncutAdvice(this.uncut)}`,
      );
      this.options.onFailure?.(error, durableBytes);
    }
    return this.failure;
  }

  private async writeBatch(bytes: Buffer): Promise<void> {
    const handle = await this.openForAppend();
    try {
      await writeFully(handle, bytes);
    } catch (error) {
      // Part of the batch may be on disk (the disk filled up): cut it off, so nothing follows a torn line.
      await handle.truncate(this.validBytes).catch(() => {
        this.uncut = this.validBytes;
      });
      throw error;
    }
    if (this.options.fsync && O_DSYNC === 0) await handle.datasync();
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

  /**
   * Rewrites the log from a snapshot of the live state (also called at open by the key-value
   * store). A failure before the rename leaves the log as it was and memory no further ahead of
   * it, so writes go on and another compaction may start after a wait (CompactionRetry); one from
   * the rename on refuses further writes, as a failed append does (see `swapIn`).
   */
  async compact(): Promise<void> {
    try {
      let tailStart = -1;
      let countedAtSnapshot = 0;
      const taken = () => {
        tailStart = this.batchStart;
        countedAtSnapshot = this.options.liveCount();
      };
      const snapshot = this.options.snapshot(taken);
      if (!(snapshot instanceof Promise)) taken();
      const written = await writeSnapshot(this.file, await snapshot);
      await this.swapIn(written, tailStart);
      this.uncountedLiveLines = Math.max(0, written.lines - countedAtSnapshot);
      this.compactRetry.succeeded();
    } catch (error) {
      await rm(`${this.file}.compact`, { force: true }).catch(() => undefined);
      // Refusing already (a failed append, or the swap): nothing to try again.
      if (this.failure) return;
      const retryInMs = this.compactRetry.failed();
      this.reporter.warn(
        { err: error, file: this.file, retryInMs },
        `embedded log ${this.file}: compaction failed (${(error as Error).message}); the log is as it was and takes writes, the next compaction waits ${Math.round(retryInMs / 1000)} s`,
      );
    }
  }

  /**
   * With appends held, copies what the log gained since the snapshot after it and renames it into
   * place. From the rename on, a failure leaves unknown which file the log is and whether the disk
   * has it (the handle may point at the replaced file), so the log refuses every further write.
   */
  private async swapIn(snapshot: { bytes: number; lines: number }, tailStart: number): Promise<void> {
    let release!: () => void;
    this.swapping = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      await this.writing?.catch(() => undefined);
      if (this.failure) throw this.failure;
      const tail = await readRange(this.file, tailStart, this.validBytes);
      const output = await open(`${this.file}.compact`, 'a');
      try {
        if (tail.length > 0) await writeFully(output, tail);
        await output.datasync();
      } finally {
        await output.close();
      }
      try {
        await rename(`${this.file}.compact`, this.file);
        await syncDirectory(dirname(this.file));
        // The handle still points at the replaced file: the next append opens the new one.
        await this.handle?.close();
      } catch (error) {
        throw this.refuseWrites(error as Error, undefined);
      }
      this.handle = undefined;
      this.validBytes = snapshot.bytes + tail.length;
      this.batchStart = this.validBytes;
      this.rewrittenBytes = this.validBytes;
      this.lineCount = snapshot.lines + countLines(tail);
    } finally {
      this.swapping = undefined;
      release();
    }
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
    const writeChunk = async () => {
      const encoded = Buffer.from(chunk);
      await writeFully(output, encoded);
      bytes += encoded.length;
      chunk = '';
    };
    for (const line of snapshot) {
      chunk += `${line}\n`;
      lines += 1;
      if (chunk.length >= SNAPSHOT_CHUNK_BYTES) await writeChunk();
    }
    if (chunk.length > 0) await writeChunk();
    await output.datasync();
  } finally {
    await output.close();
  }
  return { bytes, lines };
}

/**
 * Writes all of `bytes`: a write may take fewer than it was given (a disk filling up takes what
 * fits, and only the next write fails), so it goes on until everything is written or a write
 * fails. Counting what one write took as the whole lost acknowledged writes and made compaction
 * rename a cut-off copy over the log.
 */
async function writeFully(handle: FileHandle, bytes: Buffer): Promise<void> {
  for (let offset = 0; offset < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    if (bytesWritten === 0) throw new Error('the disk took none of a write');
    offset += bytesWritten;
  }
}

/** Writes a snapshot as a complete log at `file` (temp file, sync, rename, sync the directory). */
export async function writeLogFile(file: string, snapshot: Iterable<string>): Promise<{ bytes: number; lines: number }> {
  const written = await writeSnapshot(file, snapshot).catch(async (error: unknown) => {
    await rm(`${file}.compact`, { force: true });
    throw error;
  });
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

/** Bytes `start` to `end` of `file` (nothing when the file is missing: a log not written yet). */
async function readRange(file: string, start: number, end: number): Promise<Buffer> {
  if (end <= start) return Buffer.alloc(0);
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(end - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function countLines(text: Buffer): number {
  let lines = 0;
  for (let at = text.indexOf(10); at !== -1; at = text.indexOf(10, at + 1)) lines += 1;
  return lines;
}

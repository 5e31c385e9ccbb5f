import { open, type FileHandle } from 'node:fs/promises';

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
 * How much of a log is read at a time. The file is read in pieces rather than whole: one Buffer
 * holds at most 2 GiB, and a log may grow to twice its size after its last rewrite, so a store
 * of about a gigabyte would otherwise no longer open.
 */
const READ_CHUNK_BYTES = 16 << 20;

/**
 * Reads a log. A kill in the middle of a write can leave a torn tail (a partial last line, or
 * after a power loss, garbage); that tail was never acknowledged, so it is cut off. Anything
 * unreadable followed by readable lines is real corruption and stops the open, naming the file
 * and the byte offset of the first bad line. `endAt` reads only the file's first bytes (what a
 * log knows it wrote, when it may have written more); `chunkBytes` is for tests of lines across pieces.
 */
export async function readLog<Line extends object>(
  file: string,
  { endAt = Number.MAX_SAFE_INTEGER, chunkBytes = READ_CHUNK_BYTES }: { endAt?: number; chunkBytes?: number } = {},
): Promise<{ records: Line[]; validBytes: number; tornBytes: number }> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], validBytes: 0, tornBytes: 0 };
    throw error;
  }
  const records: Line[] = [];
  let validBytes = 0;
  let firstBad: { offset: number; line: number } | undefined;
  let lineNumber = 0;
  /** Where `pending` starts in the file: the bytes read after the last whole line. */
  let pendingAt = 0;
  let pending = Buffer.alloc(0);
  const piece = Buffer.allocUnsafe(chunkBytes);
  try {
    for (;;) {
      const position = pendingAt + pending.length;
      const { bytesRead } = await handle.read(piece, 0, Math.min(chunkBytes, endAt - position), position);
      if (bytesRead === 0) break;
      // Copied: the piece's buffer is read into again.
      const content = Buffer.concat([pending, piece.subarray(0, bytesRead)]);
      let offset = 0;
      for (let newline = content.indexOf(10); newline !== -1; newline = content.indexOf(10, offset)) {
        lineNumber += 1;
        const record = parseRecord<Line>(content.subarray(offset, newline));
        if (record === undefined) firstBad ??= { offset: pendingAt + offset, line: lineNumber };
        else {
          if (firstBad !== undefined) throw new CorruptLogError(file, firstBad.offset, firstBad.line);
          records.push(record);
          validBytes = pendingAt + newline + 1;
        }
        offset = newline + 1;
      }
      pending = content.subarray(offset);
      pendingAt += offset;
    }
  } finally {
    await handle.close();
  }
  // A last line without its newline is a torn write, whatever it holds.
  return { records, validBytes, tornBytes: pendingAt + pending.length - validBytes };
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

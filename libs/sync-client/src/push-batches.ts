import { patchModifier, type PendingOperation } from './records.js';
import type { EntityRecord } from './types.js';

/** One queued write: the record, what it sends, and its `seq` when it was sent. */
export interface QueuedWrite {
  record: EntityRecord;
  operation: PendingOperation;
  seq: number;
}

/** The server's limit of operations per `POST .../data/bulk`. */
export const PUSH_BATCH_MAX = 500;

/** Bytes of operations per request, well under the server's default body limit (1 MiB). */
const PUSH_BATCH_MAX_BYTES = 512 * 1024;

/** The bulk route's operation for one queued write. */
export function bulkOperation({ record, operation }: QueuedWrite): Record<string, unknown> {
  if (operation === 'insert') return { op: 'create', fields: { ...record.local, id: record.id } };
  if (operation === 'patch') return { op: 'patch', id: record.id, modifier: patchModifier(record), baseRevision: record.server?.revision };
  return { op: 'delete', id: record.id };
}

/**
 * The UTF-8 length of a string in bytes, as it goes over the wire (the server's body limit counts
 * bytes; `length` counts UTF-16 units: Japanese text is 3 bytes a character). Works in browsers,
 * without Buffer and without encoding the string.
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: one code point of 4 bytes.
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Splits the queue into requests of at most `size` operations and about PUSH_BATCH_MAX_BYTES of
 * UTF-8 (a write larger than that goes alone, and the server answers it as its single route would).
 * A write JSON cannot serialise (a BigInt or a cycle held by a record an older client stored, or
 * changed in place through a returned document) is set aside in `unsendable` with the error, so it
 * holds back no other write.
 */
export function pushBatches(queue: QueuedWrite[], size: number): { batches: QueuedWrite[][]; unsendable: Array<{ write: QueuedWrite; error: unknown }> } {
  const batches: QueuedWrite[][] = [];
  const unsendable: Array<{ write: QueuedWrite; error: unknown }> = [];
  let current: QueuedWrite[] = [];
  let bytes = 0;
  for (const write of queue) {
    let length: number;
    try {
      length = utf8Length(JSON.stringify(bulkOperation(write)));
    } catch (error) {
      unsendable.push({ write, error });
      continue;
    }
    if (current.length > 0 && (current.length >= size || bytes + length > PUSH_BATCH_MAX_BYTES)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(write);
    bytes += length;
  }
  if (current.length > 0) batches.push(current);
  return { batches, unsendable };
}

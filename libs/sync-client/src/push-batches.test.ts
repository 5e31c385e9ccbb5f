import { describe, expect, it } from 'vitest';
import { bulkOperation, pushBatches, utf8Length, type QueuedWrite } from './push-batches';

const insert = (id: string, text: string): QueuedWrite => ({ record: { id, local: { text }, deleted: false, touched: ['text'], seq: 1 }, operation: 'insert', seq: 1 });

describe('pushBatches', () => {
  it('measures UTF-8 bytes as TextEncoder does: ASCII, Latin, Japanese, emoji, a lone surrogate', () => {
    for (const text of ['', 'plain', 'café', '日本語のメモ', '👍🏽 ok', '\ud800 lone', 'a\udc00']) expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
  });

  it('keeps a batch of non-Latin text within the byte budget (512 KiB), not a character budget', () => {
    const text = '日本語のメモ'.repeat(1000); // 6,000 characters, 18,000 bytes
    const queue = Array.from({ length: 80 }, (_, index) => insert(`n${index}`, text));
    const { batches, unsendable } = pushBatches(queue, 500);
    expect(unsendable).toEqual([]);
    expect(batches.flat()).toEqual(queue);
    expect(batches.length).toBe(3);
    for (const batch of batches) {
      const bytes = batch.reduce((sum, write) => sum + new TextEncoder().encode(JSON.stringify(bulkOperation(write))).length, 0);
      expect(bytes).toBeLessThanOrEqual(512 * 1024);
    }
  });

  it('sets aside a write JSON cannot serialise (a BigInt, a cycle), batching the others', () => {
    const cyclic: Record<string, unknown> = { title: 'cycle' };
    cyclic.self = cyclic;
    const bigint: QueuedWrite = { record: { id: 'big', local: { n: 10n }, deleted: false, touched: ['n'], seq: 1 }, operation: 'insert', seq: 1 };
    const loop: QueuedWrite = { record: { id: 'loop', local: cyclic, deleted: false, touched: ['title', 'self'], seq: 1 }, operation: 'insert', seq: 1 };
    const queue = [insert('a', 'a'), bigint, insert('b', 'b'), loop, insert('c', 'c')];
    const { batches, unsendable } = pushBatches(queue, 2);
    expect(batches.map((batch) => batch.map((write) => write.record.id))).toEqual([['a', 'b'], ['c']]);
    expect(unsendable.map(({ write, error }) => [write.record.id, error instanceof TypeError])).toEqual([
      ['big', true],
      ['loop', true],
    ]);
  });
});

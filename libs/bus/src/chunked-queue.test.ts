import { describe, expect, it } from 'vitest';
import { ChunkedQueue } from './chunked-queue';

describe('ChunkedQueue', () => {
  it('keeps first-in first-out order and positions across compactions', () => {
    const queue = new ChunkedQueue<number>();
    let next = 0;
    let expectedHead = 0;
    // Pushes two for each one taken, so the head crosses the compaction point many times.
    for (let round = 0; round < 5000; round += 1) {
      queue.push(next++);
      queue.push(next++);
      expect(queue.shift()).toBe(expectedHead++);
      expect(queue.at(0)).toBe(expectedHead);
      expect(queue.at(queue.length - 1)).toBe(next - 1);
    }
    expect(queue.length).toBe(5000);
    expect(queue.at(queue.length)).toBeUndefined();
    expect(queue.at(-1)).toBeUndefined();
    while (queue.length > 0) expect(queue.shift()).toBe(expectedHead++);
    expect(queue.shift()).toBeUndefined();
    queue.push(7);
    expect([queue.at(0), queue.length]).toEqual([7, 1]);
  });
});

/** Past this many taken items the array is compacted, when they are at least half of it. */
const COMPACT_AFTER = 1024;

/**
 * A first-in first-out queue with O(1) push, shift and read by position. `Array#shift` copies the
 * rest of the array on every call, which on a long backlog costs as much as the backlog; here the
 * head moves forward instead, a taken slot is cleared at once (so its item can be collected), and
 * the array is compacted only once the taken slots are at least half of it (amortised O(1)).
 */
export class ChunkedQueue<T> {
  private items: Array<T | undefined> = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** The item `index` places behind the first one (0 is the first). */
  at(index: number): T | undefined {
    return index >= 0 && index < this.length ? this.items[this.head + index] : undefined;
  }

  shift(): T | undefined {
    if (this.length === 0) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head += 1;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= COMPACT_AFTER && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

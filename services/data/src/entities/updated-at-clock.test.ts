import { describe, expect, it } from 'vitest';
import { UpdatedAtClock } from './updated-at-clock';

describe('updatedAt clock', () => {
  it('never hands out the same value twice, even within one millisecond or when the clock steps back', () => {
    let now = 1_000;
    const clock = new UpdatedAtClock(() => now);
    const a = clock.begin();
    const b = clock.begin();
    now = 900;
    const c = clock.begin();
    expect([a.at, b.at, c.at]).toEqual([1_000, 1_001, 1_002]);
  });

  it('lets pulls read only below the oldest write still in flight', () => {
    let now = 5_000;
    const clock = new UpdatedAtClock(() => now);
    const first = clock.begin();
    now = 5_010;
    const second = clock.begin();
    expect(clock.stableUntil()).toBe(first.at - 1);
    first.end();
    expect(clock.stableUntil()).toBe(second.at - 1);
    second.end();
    expect(clock.stableUntil()).toBe(now);
  });

  it('keeps a settle margin for other processes', () => {
    const clock = new UpdatedAtClock(() => 10_000, 750);
    expect(clock.stableUntil()).toBe(9_250);
  });
});

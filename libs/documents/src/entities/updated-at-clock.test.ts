import { describe, expect, it } from 'vitest';
import { UpdatedAtClock } from './updated-at-clock';

describe('updatedAt clock', () => {
  it('stamps with the clock, sharing a millisecond and never going back when the clock steps back', () => {
    let now = 1_000;
    const clock = new UpdatedAtClock(() => now);
    const a = clock.begin();
    const b = clock.begin();
    now = 900;
    const c = clock.begin();
    now = 1_001;
    const d = clock.begin();
    expect([a.at, b.at, c.at, d.at]).toEqual([1_000, 1_000, 1_000, 1_001]);
  });

  it('stamps at least the floor asked for (above a pull watermark), and keeps going on from there', () => {
    const clock = new UpdatedAtClock(() => 1_000);
    expect(clock.begin(5_001).at).toBe(5_001);
    expect(clock.begin().at).toBe(5_001);
    expect(clock.begin(10).at).toBe(5_001);
  });

  it('stays with the clock however many writes a millisecond takes', () => {
    const clock = new UpdatedAtClock(() => 7_000);
    for (let write = 0; write < 5_000; write += 1) clock.begin().end();
    expect(clock.begin().at).toBe(7_000);
  });

  it('lets pulls read only below the current millisecond, so a later write in it is not skipped', () => {
    const clock = new UpdatedAtClock(() => 3_000);
    clock.begin().end();
    const bound = clock.stableUntil();
    const later = clock.begin();
    expect(bound).toBe(2_999);
    expect(later.at).toBeGreaterThan(bound);
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
    expect(clock.stableUntil()).toBe(now - 1);
  });

  it('keeps a settle margin for other processes', () => {
    const clock = new UpdatedAtClock(() => 10_000, 750);
    expect(clock.stableUntil()).toBe(9_249);
  });
});

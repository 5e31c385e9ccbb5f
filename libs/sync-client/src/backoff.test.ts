import { describe, expect, it } from 'vitest';
import { Backoff } from './timers.js';

describe('Backoff', () => {
  it('doubles its step per failure up to the cap, with jitter between half and all of the step, and starts over after reset', () => {
    const highest = new Backoff({ initialMs: 100, maxMs: 500, random: () => 1 });
    expect([highest.next(), highest.next(), highest.next(), highest.next(), highest.next()]).toEqual([100, 200, 400, 500, 500]);
    highest.reset();
    expect(highest.next()).toBe(100);
    const lowest = new Backoff({ initialMs: 100, random: () => 0 });
    expect([lowest.next(), lowest.next()]).toEqual([50, 100]);
  });

  it("waits at least what the server asked for, and still counts the failure", () => {
    const backoff = new Backoff({ initialMs: 100, random: () => 1 });
    expect(backoff.next(5_000)).toBe(5_000);
    expect(backoff.next(50)).toBe(200);
    expect(backoff.next(undefined)).toBe(400);
  });
});

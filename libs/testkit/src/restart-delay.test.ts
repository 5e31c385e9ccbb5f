import { describe, expect, it } from 'vitest';
import { restartDelayMs } from './restart-delay';

describe('the restart delay of supervised services and local backends', () => {
  it('waits longer after each crash in a row, up to 30 s', () => {
    expect([1, 2, 3, 4].map((n) => restartDelayMs(n))).toEqual([500, 1_000, 2_000, 4_000]);
    expect(restartDelayMs(20)).toBe(30_000);
  });
});

import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retry-after';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-12-06T12:00:00Z');

  it('reads delay-seconds', () => {
    expect([retryAfterMs('0', now), retryAfterMs('5', now), retryAfterMs(' 120 ', now)]).toEqual([0, 5_000, 120_000]);
  });

  it('reads an HTTP-date against now, and one in the past as no wait', () => {
    expect(retryAfterMs('Sun, 06 Dec 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs(new Date(now + 90_000).toUTCString(), now)).toBe(90_000);
    expect(retryAfterMs('Sun, 06 Dec 2026 11:59:00 GMT', now)).toBe(0);
  });

  it('ignores what is neither', () => {
    for (const value of [null, '', '-1', '1.5', 'soon', '2026-12-06T12:00:30Z', 'Dec 06 2026', 'Sun, 99 Foo 2026 12:00:30 GMT']) expect(retryAfterMs(value, now)).toBeUndefined();
  });
});

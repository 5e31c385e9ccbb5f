import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, retryAfterDelay } from './http';

describe('retryAfterDelay', () => {
  const now = Date.parse('2026-12-06T12:00:00Z');

  it('reads seconds and HTTP dates as a delay from now', () => {
    expect(retryAfterDelay('3', now)).toBe(3_000);
    expect(retryAfterDelay(' 0 ', now)).toBe(0);
    expect(retryAfterDelay('Sun, 06 Dec 2026 12:00:42 GMT', now)).toBe(42_000);
  });

  it('waits nothing for a date already past, and at most MAX_RETRY_AFTER_MS for a long one', () => {
    expect(retryAfterDelay('Sun, 06 Dec 2026 11:59:00 GMT', now)).toBe(0);
    expect(retryAfterDelay('86400', now)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('ignores a missing or unreadable header', () => {
    for (const header of [null, '', 'soon', '-5', '1.5']) expect(retryAfterDelay(header, now), String(header)).toBeUndefined();
  });
});

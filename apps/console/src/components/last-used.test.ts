import { describe, expect, it } from 'vitest';
import { lastUsed } from './last-used';

const now = Date.UTC(2026, 11, 6, 12);
const minutes = (count: number) => now - count * 60_000;

describe('lastUsed', () => {
  it.each([
    [null, 'never'],
    [now, 'in the last 5 minutes'],
    [minutes(4.9), 'in the last 5 minutes'],
    [minutes(5), '5 minutes ago'],
    [minutes(59), '59 minutes ago'],
    [minutes(60), '1 hour ago'],
    [minutes(60 * 23 + 59), '23 hours ago'],
    [minutes(60 * 24 * 3), '3 days ago'],
  ])('says %s as %s', (at, said) => {
    expect(lastUsed(at, now)).toBe(said);
  });
});

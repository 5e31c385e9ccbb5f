import { describe, expect, it } from 'vitest';
import { counted } from './counted';

describe('counted', () => {
  it('says one with the singular and every other count with the plural', () => {
    expect([0, 1, 2, 1000].map((count) => counted(count, 'run'))).toEqual(['0 runs', '1 run', '2 runs', '1000 runs']);
  });

  it('takes an irregular plural', () => {
    expect([1, 3].map((count) => counted(count, 'entry', 'entries'))).toEqual(['1 entry', '3 entries']);
  });
});

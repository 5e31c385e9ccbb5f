import { describe, expect, it } from 'vitest';
import { DEFAULT_HISTORY_CACHE_CHANGES, loadHistoryCacheChanges } from './config';

describe('DATA_HISTORY_CACHE_CHANGES', () => {
  it('keeps 200,000 changes unless set, and takes a value set', () => {
    expect(DEFAULT_HISTORY_CACHE_CHANGES).toBe(200_000);
    expect(loadHistoryCacheChanges({})).toBe(200_000);
    expect(loadHistoryCacheChanges({ DATA_HISTORY_CACHE_CHANGES: '50000' })).toBe(50_000);
  });

  it('refuses a value that is no whole number of at least 1,000, naming the variable', () => {
    expect(() => loadHistoryCacheChanges({ DATA_HISTORY_CACHE_CHANGES: 'many' })).toThrow('DATA_HISTORY_CACHE_CHANGES');
    expect(() => loadHistoryCacheChanges({ DATA_HISTORY_CACHE_CHANGES: '10' })).toThrow('DATA_HISTORY_CACHE_CHANGES');
  });
});

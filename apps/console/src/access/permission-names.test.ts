import { describe, expect, it } from 'vitest';
import { listOf, plainPermission } from './permission-names';

describe('permission names', () => {
  it('shows the plain name of the own project and keeps names scoped to another as they are', () => {
    expect(plainPermission('p1', 'p1::editors')).toBe('editors');
    expect(plainPermission('p1', 'p2::editors')).toBe('p2::editors');
    expect(plainPermission('p1', 'editors')).toBe('editors');
  });

  it('reads a comma-separated list, trimmed, without empty entries', () => {
    expect(listOf(' a, b ,,c ')).toEqual(['a', 'b', 'c']);
    expect(listOf('  ')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { conflictDetails } from './conflict';

describe('conflict details', () => {
  const base = { id: 'd1', revision: 1, title: 'Draft', count: 1, address: { city: 'Bonn', zip: '53111' } };
  const current = { id: 'd1', revision: 3, title: 'Final', count: 1, address: { city: 'Köln', zip: '53111' } };
  const changesSince = [
    { userId: 'u2', timestamp: 10, baseRevision: 1, modifier: { $set: { title: 'Final' } } },
    { userId: 'u2', timestamp: 11, baseRevision: 2, modifier: { $set: { 'address.city': 'Köln' } } },
  ];

  it('gives base, theirs and mine per touched path and whether the server touched it', () => {
    const details = conflictDetails({ base, current, baseRevision: 1, changesSince, modifier: { $set: { title: 'Mine' }, $inc: { count: 2 }, $unset: { address: '' } } });
    expect(details.baseRevision).toBe(1);
    expect(details.currentRevision).toBe(3);
    expect(details.fields).toEqual([
      { path: 'title', base: 'Draft', theirs: 'Final', mine: 'Mine', serverTouched: true },
      { path: 'count', base: 1, theirs: 1, mine: 3, serverTouched: false },
      { path: 'address', base: base.address, theirs: current.address, mine: undefined, serverTouched: true },
    ]);
  });

  it('does not mutate the base document', () => {
    conflictDetails({ base, current, baseRevision: 1, changesSince, modifier: { $set: { 'address.city': 'Bonn-Mitte' } } });
    expect(base.address.city).toBe('Bonn');
  });
});

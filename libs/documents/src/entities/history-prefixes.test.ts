import { describe, expect, it } from 'vitest';
import { CHANGE_CHARACTERS_COUNTED_ONCE, HistoryPrefixes } from './history-prefixes';

const change = (revision: number) => ({ revision, userId: 'u', timestamp: 1000 + revision, baseRevision: revision - 1, modifier: { $set: { n: revision } } });
const revisionsOf = (prefix: ReadonlyArray<{ timestamp: number }>) => prefix.map((entry) => entry.timestamp - 1000);

describe('HistoryPrefixes', () => {
  it('keeps changes from revision 0 on, only as far as they follow without a gap', () => {
    const prefixes = new HistoryPrefixes(100);
    prefixes.extend('a', [change(1), change(2)]);
    expect(prefixes.get('a')).toEqual([]);
    prefixes.extend('a', [change(0), change(1), change(3)]);
    expect(revisionsOf(prefixes.get('a'))).toEqual([0, 1]);
    prefixes.extend('a', [change(1), change(2), change(3)]);
    expect(revisionsOf(prefixes.get('a'))).toEqual([0, 1, 2, 3]);
    expect(prefixes.get('a')[2]).toEqual({ userId: 'u', timestamp: 1002, baseRevision: 1, modifier: { $set: { n: 2 } } });
  });

  it('drops the least recently used entities past the bound, and never holds one larger than it', () => {
    const prefixes = new HistoryPrefixes(5);
    prefixes.extend('a', [change(0), change(1)]);
    prefixes.extend('b', [change(0), change(1)]);
    prefixes.get('a');
    prefixes.extend('c', [change(0), change(1)]);
    expect(revisionsOf(prefixes.get('a'))).toEqual([0, 1]);
    expect(prefixes.get('b')).toEqual([]);
    expect(revisionsOf(prefixes.get('c'))).toEqual([0, 1]);
    prefixes.extend('huge', [0, 1, 2, 3, 4, 5].map(change));
    expect(prefixes.get('huge')).toEqual([]);
    expect(revisionsOf(prefixes.get('a'))).toEqual([0, 1]);
  });

  it('counts a large change once per CHANGE_CHARACTERS_COUNTED_ONCE characters of its modifier, so the bound holds bytes, not only changes', () => {
    // Creations of 10 kB documents (a creation's change is the whole document): 40 counted each.
    const prefixes = new HistoryPrefixes(1000);
    const body = 'x'.repeat(40 * CHANGE_CHARACTERS_COUNTED_ONCE);
    const creation = { revision: 0, userId: 'u', timestamp: 1000, baseRevision: -1, modifier: { $set: { body } } };
    for (let n = 0; n < 100; n += 1) prefixes.extend(`doc${n}`, [creation]);
    const kept = Array.from({ length: 100 }, (_, n) => prefixes.get(`doc${n}`).length).filter((length) => length > 0).length;
    expect(kept).toBeLessThanOrEqual(Math.floor(1000 / 40));
    expect(prefixes.get('doc99')).toHaveLength(1);
    // The length a caller gives is taken as it is (History gives the stored modifierJson's).
    prefixes.extend('told', [{ ...change(0), modifierCharacters: 2000 * CHANGE_CHARACTERS_COUNTED_ONCE }]);
    expect(prefixes.get('told')).toEqual([]);
    // Small changes count once each, as before.
    const small = new HistoryPrefixes(5);
    small.extend('a', [0, 1, 2, 3, 4].map(change));
    expect(small.get('a')).toHaveLength(5);
  });

  it('hands out frozen changes, so no reader can alter what the next one gets', () => {
    const prefixes = new HistoryPrefixes(10);
    prefixes.extend('a', [change(0)]);
    const [first] = prefixes.get('a');
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first!.modifier.$set)).toBe(true);
  });

  it("keeps each change's JSON text: the array of revisions 0 to r is the text JSON.stringify gives, while the prefix reaches r", () => {
    const prefixes = new HistoryPrefixes(100);
    expect(prefixes.jsonThrough('a', 0)).toBeUndefined();
    prefixes.extend('a', [change(0), change(1), change(2)]);
    expect(prefixes.jsonThrough('a', 2)).toBe(JSON.stringify(prefixes.get('a')));
    expect(prefixes.jsonThrough('a', 0)).toBe(JSON.stringify(prefixes.get('a').slice(0, 1)));
    expect(prefixes.jsonThrough('a', 3)).toBeUndefined();
    prefixes.extend('a', [change(3)]);
    expect(JSON.parse(prefixes.jsonThrough('a', 3)!)).toEqual([0, 1, 2, 3].map((revision) => ({ userId: 'u', timestamp: 1000 + revision, baseRevision: revision - 1, modifier: { $set: { n: revision } } })));
    prefixes.forget('a');
    expect(prefixes.jsonThrough('a', 0)).toBeUndefined();
  });
});

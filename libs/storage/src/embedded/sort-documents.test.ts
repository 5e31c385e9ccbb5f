import { describe, expect, it } from 'vitest';
import { sortDocuments } from './sort-documents';

const documents = Array.from({ length: 400 }, (_, index) => ({ id: `d${index}`, at: (index * 7919) % 97, group: index % 3 === 0 ? null : `g${index % 5}` }));

describe('sortDocuments', () => {
  it('picks the same first page from a bounded heap as from a full sort, ties in input order', () => {
    const full = sortDocuments(documents, { at: 1 });
    for (const keep of [1, 10, 50, 99]) expect(sortDocuments(documents, { at: 1 }, keep)).toEqual(full.slice(0, keep));
    const ties = full.filter((document) => document.at === full[0]!.at).map((document) => Number(document.id.slice(1)));
    expect(ties).toEqual([...ties].sort((a, b) => a - b));
  });

  it('orders by several keys and directions, missing and null before strings as MongoDB does', () => {
    const page = sortDocuments(documents, { group: -1, at: 1 }, 20);
    expect(page).toEqual(sortDocuments(documents, { group: -1, at: 1 }).slice(0, 20));
    expect(page[0]!.group).toBe('g4');
    const ascending = sortDocuments(documents, { group: 1 }, 5);
    expect(ascending.every((document) => document.group === null)).toBe(true);
  });

  it('keeps nothing when asked for nothing', () => {
    expect(sortDocuments(documents, { at: 1 }, 0)).toEqual([]);
  });
});

import { Query } from 'mingo';
import { describe, expect, it } from 'vitest';
import type { Projection } from '../port';
import { projectTopLevel } from './top-level-projection';

const documents = [
  { id: 'a', title: 'T', count: 0, note: null, meta: { owner: 'ann', tags: ['x'] }, _outbox: [{ revision: 1 }] },
  { id: 'b' },
  { id: 'c', displayName: 'Cy', passwordHash: 'h', list: [1, { a: 2 }] },
];

const projections: Projection[] = [
  { _outbox: 0 },
  { passwordHash: 0, _outbox: 0 },
  { id: 0 },
  { displayName: 1 },
  { projectId: 1 },
  { id: 1 },
  { id: 1, access: 1 },
  { title: 1, meta: 1, note: 1 },
  { title: 1, id: 0 },
  { revision: 1, list: 1 },
];

describe('projectTopLevel', () => {
  it('gives what the query engine gives for top-level inclusions and exclusions', () => {
    for (const document of documents) {
      for (const projection of projections) {
        const [expected] = new Query({}, { idKey: 'id' }).find([document], projection as never).all();
        expect(projectTopLevel(document, projection), `${document.id} ${JSON.stringify(projection)}`).toEqual(expected);
      }
    }
  });

  it('answers a copy the caller may change', () => {
    const document = { id: 'd', meta: { owner: 'ann' } };
    const projected = projectTopLevel(document, { meta: 1 }) as { meta: { owner: string } };
    projected.meta.owner = 'bob';
    expect(document.meta.owner).toBe('ann');
  });

  it('leaves dotted paths and mixed modes to the query engine', () => {
    expect(projectTopLevel(documents[0]!, { 'meta.owner': 1 })).toBeUndefined();
    expect(projectTopLevel(documents[0]!, { title: 1, count: 0 })).toBeUndefined();
  });
});

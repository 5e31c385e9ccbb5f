import { describe, expect, it } from 'vitest';
import { linkedRevision } from '../history/linked-revision';
import { itemLink } from './item-link';
import { endOfDay, filtersFromSearch, filtersToSearch, pageCount, startOfDay, trailQuery } from './trail-filters';

describe('audit trail filters', () => {
  it('read back from the URL query they write, leaving out defaults', () => {
    const filters = { typeId: 'tasks', userId: 'u 1', changeType: 'updated' as const, from: '2026-11-01', to: '2026-11-24', page: 3, limit: 10 };
    const search = filtersToSearch(filters);
    expect(search).toBe('?typeId=tasks&userId=u+1&changeType=updated&from=2026-11-01&to=2026-11-24&page=3&limit=10');
    expect(filtersFromSearch(search)).toEqual(filters);
    expect(filtersToSearch({ page: 1, limit: 50 })).toBe('');
    expect(filtersFromSearch('')).toEqual({ page: 1, limit: 50 });
  });

  it('drop what a URL holds that no control could have set', () => {
    expect(filtersFromSearch('?changeType=moved&from=yesterday&to=2026-13&page=0&limit=33&typeId=&userId=')).toEqual({ page: 1, limit: 50 });
    expect(filtersFromSearch('?page=-2&limit=ten')).toEqual({ page: 1, limit: 50 });
  });

  it('turn the date range into Unix ms from the first to the last millisecond of those local days', () => {
    const from = startOfDay('2026-11-24')!;
    const to = endOfDay('2026-11-24')!;
    expect(new Date(from)).toEqual(new Date(2026, 10, 24));
    expect(to - from).toBe(24 * 3600 * 1000 - 1);
    expect(trailQuery({ from: '2026-11-24', to: '2026-11-24', page: 2, limit: 25 })).toEqual({ from, to, page: 2, limit: 25 });
    expect(startOfDay('24.11.2026')).toBeUndefined();
  });

  it('count pages as ceil(total / limit), at least one', () => {
    expect([pageCount(0, 10), pageCount(10, 10), pageCount(11, 10), pageCount(12, 5)]).toEqual([1, 1, 2, 3]);
  });
});

describe('audit trail item links', () => {
  it("lead to a document's history at the item's revision, a type's documents, the applications, the settings, the members, an action, or a domain's application", () => {
    expect(itemLink('p 1', { entityTypeId: 'tasks', entityId: 'a/b', revision: 4 })).toBe('/projects/p%201/types/tasks/documents/a%2Fb?revision=4');
    expect(itemLink('p1', { entityTypeId: 'types', entityId: 'tasks', revision: 0 })).toBe('/projects/p1/types/tasks');
    expect(itemLink('p1', { entityTypeId: 'applications', entityId: 'app', revision: 2 })).toBe('/projects/p1/applications');
    expect(itemLink('p1', { entityTypeId: 'project.members', entityId: 'u1', revision: 0 })).toBe('/projects/p1/members');
    expect(itemLink('p1', { entityTypeId: 'project.settings', entityId: 'p1', revision: 2 })).toBe('/projects/p1/settings');
    expect(itemLink('p1', { entityTypeId: 'project.actions', entityId: 'a 1', revision: 3 })).toBe('/projects/p1/actions/a%201');
    expect(itemLink('p1', { entityTypeId: 'project.domains', entityId: 'd1', revision: 2, target: { applicationId: 'app 1' } })).toBe('/projects/p1/applications/app%201');
    expect(itemLink('p1', { entityTypeId: 'project.domains', entityId: 'd1', revision: 0 })).toBe('/projects/p1/applications');
  });

  it('name a revision the document screen reads back, and nothing else', () => {
    expect(linkedRevision('?revision=4')).toBe(4);
    expect(linkedRevision('?revision=0')).toBe(0);
    expect([linkedRevision(''), linkedRevision('?revision=-1'), linkedRevision('?revision=1.5'), linkedRevision('?revision=x')]).toEqual([undefined, undefined, undefined, undefined]);
  });
});

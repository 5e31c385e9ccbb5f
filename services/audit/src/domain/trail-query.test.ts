import { describe, expect, it } from 'vitest';
import { clampLimit, skipFor, trailFilter } from './trail-query';

const owner = { userId: 'o', superuser: true, permissions: new Set<string>() };
const member = { userId: 'm', superuser: false, permissions: new Set(['p::readers']) };

describe('trail query', () => {
  it('clamps the page size to 200 and computes the skip of a 1-based page', () => {
    expect([clampLimit(1), clampLimit(200), clampLimit(201), clampLimit(10_000)]).toEqual([1, 200, 200, 200]);
    expect([skipFor({ page: 1, limit: 50 }), skipFor({ page: 3, limit: 20 })]).toEqual([0, 40]);
  });

  it('combines the filters; from and to are inclusive', () => {
    expect(trailFilter('p', { userId: 'u', typeId: 't', changeType: 'deleted', from: 10, to: 20 }, owner, [])).toEqual({
      projectId: 'p',
      userId: 'u',
      entityTypeId: 't',
      changeType: 'deleted',
      timestamp: { $gte: 10, $lte: 20 },
    });
    expect(trailFilter('p', { from: 10 }, owner, [])).toEqual({ projectId: 'p', timestamp: { $gte: 10 } });
  });

  it('adds read RLS on the items\' access for callers who are not superusers', () => {
    const filter = trailFilter('p', {}, member, []) as { $and: unknown[] };
    expect(filter.$and[0]).toEqual({ projectId: 'p' });
    expect(JSON.stringify(filter.$and[1])).toContain('access.read.permission');
  });

  it('leaves out the items of types whose read rule excludes the caller', () => {
    const filter = trailFilter('p', { typeId: 't' }, member, ['secret', 'hidden']) as { $and: unknown[] };
    expect(filter.$and[0]).toEqual({ projectId: 'p', entityTypeId: 't' });
    expect(filter.$and[1]).toEqual({ entityTypeId: { $nin: ['secret', 'hidden'] } });
    expect(JSON.stringify(filter.$and[2])).toContain('access.read.permission');
  });
});

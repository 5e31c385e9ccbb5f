import { describe, expect, it } from 'vitest';
import { planOrderedScan } from './ordered-plan';

const byType = { keys: { projectId: 1, typeId: 1, at: -1, id: -1 } } as const;
const byProject = { keys: { projectId: 1, at: -1, id: -1 } } as const;
const byAt = { keys: { at: 1 } } as const;
const nested = { keys: { 'a.b': 1 } } as const;

describe('planOrderedScan', () => {
  it('picks the index with the most pinned leading fields and leaves only the rest to test', () => {
    const plan = planOrderedScan([byProject, byType], { projectId: 'p', typeId: 't', user: 'u' }, { at: -1, id: -1 });
    expect(plan).toMatchObject({ spec: byType, sorted: true, reverse: false, residual: { user: 'u' } });
    expect(plan?.bounds).toHaveLength(2);
  });

  it('uses a range on the field after the pinned ones, and reads backwards for the opposite sort', () => {
    const plan = planOrderedScan([byType], { projectId: 'p', typeId: 't', at: { $gte: 5 } }, { at: 1, id: 1 });
    expect(plan).toMatchObject({ sorted: true, reverse: true, residual: { at: { $gte: 5 } } });
    expect(plan?.bounds[2]).toEqual({ low: { value: 5, inclusive: true } });
  });

  it('serves a sort alone, with the id every key ends with', () => {
    expect(planOrderedScan([byAt], { other: 1 }, { at: 1, id: 1 })).toMatchObject({ spec: byAt, sorted: true, reverse: false });
    expect(planOrderedScan([byAt], {}, { at: 1, id: -1 })).toBeUndefined();
  });

  it('declines filters no index narrows, and dotted index fields', () => {
    expect(planOrderedScan([byType, byAt], { typeId: 't' })).toBeUndefined();
    expect(planOrderedScan([nested], { 'a.b': 1 })).toBeUndefined();
    expect(planOrderedScan([byType], { projectId: 'p' }, { other: 1 })).toMatchObject({ sorted: false, residual: {} });
  });
});

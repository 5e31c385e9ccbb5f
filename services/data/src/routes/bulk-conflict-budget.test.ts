import { describe, expect, it } from 'vitest';
import { ConflictDetailsBudget } from './bulk-conflict-budget';

const conflict = (details: Record<string, unknown>) => ({ status: 409, body: { error: 'conflict', code: 'DATA_REVISION_CONFLICT', details } });

describe('conflict details budget of a bulk answer', () => {
  it('lets conflicts replay history until the revisions are spent, the first whatever it costs', () => {
    const budget = new ConflictDetailsBudget({ characters: 1_000, revisions: 100 });
    expect([budget.mayExplain(150), budget.mayExplain(1)]).toEqual([true, false]);
    const spreading = new ConflictDetailsBudget({ characters: 1_000, revisions: 100 });
    expect([60, 60, 1].map(spreading.mayExplain)).toEqual([true, true, false]);
  });

  it('keeps details while the characters last, then answers them omitted and explains no more', () => {
    const budget = new ConflictDetailsBudget({ characters: 100, revisions: 1_000 });
    const large = conflict({ baseRevision: 1, currentRevision: 2, current: { text: 'x'.repeat(200) } });
    expect(budget.within(large)).toBe(large);
    expect(budget.within(large).body.details).toEqual({ baseRevision: 1, currentRevision: 2, detailsOmitted: true });
    expect(budget.mayExplain(1)).toBe(false);
  });

  it('leaves other results as they are', () => {
    const budget = new ConflictDetailsBudget({ characters: 0, revisions: 0 });
    const duplicate = { status: 409, body: { error: 'taken', code: 'DATA_DUPLICATE_ID', details: { id: 'a' } } };
    const document = { status: 200, body: { id: 'a', revision: 1 } };
    expect([budget.within(duplicate), budget.within(document)]).toEqual([duplicate, document]);
  });
});

import { describe, expect, it } from 'vitest';
import { indexBeyondLimit, limitProblem } from './document-limits';

const limits = { maxDocumentBytes: 1_000, maxArrayLength: 5 };

describe('document limits', () => {
  it('finds an index at or past the array limit in any operator path, before anything is applied', () => {
    expect(indexBeyondLimit({ $set: { 'tags.4': 1, 'a.b': 2 } }, 5)).toBeUndefined();
    expect(indexBeyondLimit({ $set: { 'tags.10000000': 1 } }, 5)).toMatchObject({ kind: 'array', field: 'tags', length: 10_000_001 });
    expect(indexBeyondLimit({ $inc: { 'rows.5.count': 1 } }, 5)).toMatchObject({ field: 'rows' });
    expect(indexBeyondLimit({ $rename: { old: 'list.99' } }, 5)).toMatchObject({ field: 'list' });
  });

  it('names the first array longer than the limit, at any depth', () => {
    expect(limitProblem({ tags: [1, 2, 3, 4, 5] }, limits, ['tags'])).toBeUndefined();
    expect(limitProblem({ a: { b: [[1, 2, 3, 4, 5, 6]] } }, limits, ['a'])).toMatchObject({ kind: 'array', field: 'a.b.0', length: 6, limit: 5 });
  });

  it('measures the JSON bytes and names the largest field the write changed', () => {
    const fields = { big: 'x'.repeat(600), grown: 'y'.repeat(450), small: 'z' };
    expect(limitProblem(fields, limits, ['grown', 'small'])).toMatchObject({ kind: 'size', field: 'grown', limit: 1_000 });
    expect(limitProblem(fields, limits, ['gone'])).toMatchObject({ kind: 'size', field: 'big' });
    expect(limitProblem({ big: 'x'.repeat(900) }, limits, ['big'])).toBeUndefined();
  });
});

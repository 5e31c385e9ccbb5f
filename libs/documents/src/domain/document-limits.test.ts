import { describe, expect, it } from 'vitest';
import { indexBeyondLimit, limitProblem, MAX_DOCUMENT_DEPTH } from './document-limits';

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

  /** A document nesting `levels` deep, counting the document itself as a request body's outer object counts. */
  function nested(levels: number): Record<string, unknown> {
    let value: Record<string, unknown> = { leaf: 1 };
    for (let level = 2; level < levels; level += 1) value = { a: value };
    return { a: value };
  }

  it('refuses nesting past MAX_DOCUMENT_DEPTH, so what is stored can be sent back inside any request body', () => {
    expect(MAX_DOCUMENT_DEPTH).toBe(61);
    expect(limitProblem(nested(MAX_DOCUMENT_DEPTH), limits, ['a'])).toBeUndefined();
    expect(limitProblem(nested(MAX_DOCUMENT_DEPTH + 1), limits, ['a'])).toMatchObject({ kind: 'depth', limit: MAX_DOCUMENT_DEPTH, field: expect.stringMatching(/^a(\.a)+$/) });
    expect(limitProblem({ list: [[[[1]]]] }, limits, ['list'])).toBeUndefined();
  });

  it('refuses a number JSON cannot store (what an $inc past the range of a double makes), naming it', () => {
    expect(limitProblem({ n: Number.MAX_VALUE }, limits, ['n'])).toBeUndefined();
    expect(limitProblem({ n: Infinity }, limits, ['n'])).toMatchObject({ kind: 'number', field: 'n' });
    expect(limitProblem({ rows: [{ n: -Infinity }] }, limits, ['rows'])).toMatchObject({ kind: 'number', field: 'rows.0.n' });
    expect(limitProblem({ n: NaN }, limits, ['n'])).toMatchObject({ kind: 'number' });
  });
});

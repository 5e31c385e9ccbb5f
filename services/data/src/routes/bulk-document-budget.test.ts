import { describe, expect, it } from 'vitest';
import { documentsWithin } from './bulk-document-budget';

describe('documents budget of a bulk answer', () => {
  it('keeps documents while the budget lasts, the first whatever its size, then answers each success’s version only', () => {
    const within = documentsWithin(100);
    const created = { status: 201, body: { id: 'a', revision: 0, createdAt: 1, updatedAt: 1, text: 'x'.repeat(200) } };
    const deleted = { status: 200, body: { id: 'b', revision: 3, createdAt: 1, updatedAt: 5, deletedAt: 5, text: 'y' } };
    expect(within(created)).toBe(created);
    expect(within(created)).toEqual({ status: 201, body: { id: 'a', revision: 0, createdAt: 1, updatedAt: 1, bodyOmitted: true } });
    expect(within(deleted)).toEqual({ status: 200, body: { id: 'b', revision: 3, createdAt: 1, updatedAt: 5, deletedAt: 5, bodyOmitted: true } });
  });

  it('leaves errors as they are', () => {
    const within = documentsWithin(0);
    const refused = { status: 400, body: { error: 'bad', code: 'DATA_INVALID_MODIFIER' } };
    expect(within(refused)).toBe(refused);
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { numberText } from './number-text';

describe('numberText', () => {
  const page = numberText(z.coerce.number('must be a number').int().min(1)).default(1);

  it('reads decimal number text as its number', () => {
    expect(['1', '20', '20.0', '3e0', '2E1', '1.5e1'].map((text) => page.parse(text))).toEqual([1, 20, 20, 3, 20, 15]);
    expect(page.parse(undefined)).toBe(1);
  });

  it("refuses what Number() alone would read as a number, with the schema's message", () => {
    for (const text of ['0x10', '0b11', '0o7', ' 20', '20 ', '', 'Infinity', '+5', '5.', '.5', '1_000']) {
      const result = page.safeParse(text);
      expect({ text, issues: result.error?.issues.map((issue) => issue.message) }).toEqual({ text, issues: ['must be a number'] });
    }
  });

  it("keeps the schema's bounds and its type in the API description", () => {
    expect(page.safeParse('0').error?.issues[0]?.code).toBe('too_small');
    expect(z.toJSONSchema(numberText(z.coerce.number().int().min(1)), { io: 'input' })).toMatchObject({ type: 'integer', minimum: 1 });
  });
});

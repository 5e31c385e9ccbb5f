import { describe, expect, it } from 'vitest';
import { jsonWithin, pageAnswerText } from './page-text';

describe('jsonWithin', () => {
  it('answers the JSON text within the limit, nothing past it', () => {
    expect(jsonWithin({ items: [1, 2] }, 100)).toBe('{"items":[1,2]}');
    expect(jsonWithin({ items: [1, 2] }, 15)).toBe('{"items":[1,2]}');
    expect(jsonWithin({ items: [1, 2] }, 14)).toBeUndefined();
  });

  it('answers nothing for a value too long for one string, and throws what else JSON refuses', () => {
    const long = 'x'.repeat(300 * 1024 * 1024);
    expect(jsonWithin([long, long], Number.MAX_SAFE_INTEGER)).toBeUndefined();
    expect(() => jsonWithin({ n: 1n }, 100)).toThrow(TypeError);
  });
});

describe('pageAnswerText', () => {
  it('is the JSON of the page with its items given as texts, its other fields after them', () => {
    const items = [{ id: 'a', changes: [{ modifier: { $set: { n: 1 } } }] }, { id: 'b', deletedAt: 5 }];
    const fields = { cursor: 'c1', retryAfterMs: 250, standing: 's' };
    const text = pageAnswerText(items.map((item) => JSON.stringify(item)), fields);
    expect(text).toBe(JSON.stringify({ items, ...fields }));
    expect(pageAnswerText([], {})).toBe('{"items":[]}');
    expect(pageAnswerText(['{"id":"a"}'], {})).toBe('{"items":[{"id":"a"}]}');
  });
});

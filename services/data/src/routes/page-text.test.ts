import { describe, expect, it } from 'vitest';
import { pageJson } from './page-text';

describe('pageJson', () => {
  it.each([
    [[], {}],
    [['{"id":"a"}'], {}],
    [['{"id":"a"}', '{"id":"b","n":1}'], { cursor: 'c', retryAfterMs: 5 }],
    [[], { standing: 's' }],
  ])('%j with %j is the JSON of the page', (items, rest) => {
    const text = pageJson(items, rest);
    expect(JSON.parse(text)).toEqual({ items: items.map((item) => JSON.parse(item)), ...rest });
    expect(text).toBe(JSON.stringify({ items: items.map((item) => JSON.parse(item)), ...rest }));
  });
});

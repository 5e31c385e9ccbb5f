import { describe, expect, it } from 'vitest';
import { findJsonLimitViolation, MAX_JSON_DEPTH, pathOfNonFiniteNumber } from './json-limits';

const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;

describe('JSON limits', () => {
  it('allows nesting up to the limit and refuses one level more, in arrays and objects', () => {
    expect(findJsonLimitViolation(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(findJsonLimitViolation(nested(MAX_JSON_DEPTH + 1))).toBe('too-deep');
    expect(findJsonLimitViolation(`${'{"a":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH)}`)).toBeNull();
    expect(findJsonLimitViolation(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`)).toBe('too-deep');
  });

  it('survives 1,000,000 levels without recursion', () => {
    expect(findJsonLimitViolation('['.repeat(1_000_000))).toBe('too-deep');
  });

  it('ignores brackets, quotes and numbers inside strings, escaped quotes included', () => {
    expect(findJsonLimitViolation(JSON.stringify({ text: '['.repeat(500), quoted: 'say \\"[[[[\\" 1e999', tail: '\\' }))).toBeNull();
    expect(findJsonLimitViolation(JSON.stringify(['\\', '1e999']))).toBeNull();
  });

  it('refuses numbers that do not fit a double and keeps those that do', () => {
    for (const number of ['1e309', '-1e309', '1E400', '2e+308', `1${'0'.repeat(309)}`]) expect(findJsonLimitViolation(`{"n":${number}}`), number).toBe('non-finite-number');
    for (const number of ['1e308', '-1.7976931348623157e308', '1e-400', '0', '-0.5', `1${'0'.repeat(300)}`]) expect(findJsonLimitViolation(`[${number}]`), number).toBeNull();
  });

  it('leaves malformed text to the parser', () => {
    expect(findJsonLimitViolation('{"a": 1e}')).toBeNull();
    expect(findJsonLimitViolation('"unterminated')).toBeNull();
    expect(findJsonLimitViolation(']]]]')).toBeNull();
  });

  it('names where a non-finite number sits in a parsed value', () => {
    expect(pathOfNonFiniteNumber({ a: [{ b: 1 }, { price: Infinity }] })).toBe('a.1.price');
    expect(pathOfNonFiniteNumber(-Infinity)).toBe('');
    expect(pathOfNonFiniteNumber({ a: [1, 'x', null] })).toBeNull();
  });
});

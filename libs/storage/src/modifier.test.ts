import { describe, expect, it } from 'vitest';
import { pathsOverlap } from './modifier';

describe('path overlap', () => {
  it.each([
    ['a', 'a', true],
    ['a', 'a.b', true],
    ['a.b', 'a', true],
    ['a', 'ab', false],
    ['a.b', 'a.c', false],
  ])('%s and %s overlap: %s', (a, b, expected) => {
    expect(pathsOverlap(a, b)).toBe(expected);
  });
});

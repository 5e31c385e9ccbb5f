import { describe, expect, it } from 'vitest';
import { overlappingPair, pathsOverlap } from './modifier';

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

describe('overlappingPair', () => {
  it.each([
    [['a', 'b'], undefined],
    [['a', 'a'], ['a', 'a']],
    [['a', 'a.b'], ['a', 'a.b']],
    [['a.b.c', 'a'], ['a.b.c', 'a']],
    [['a.b', 'x', 'a.b.c'], ['a.b', 'a.b.c']],
    [['a.b', 'a.c', 'ab', 'a-b'], undefined],
  ])('%j: %j', (paths, expected) => {
    expect(overlappingPair(paths)).toEqual(expected);
  });

  it('finds the same as comparing every pair, on random paths', () => {
    const segment = () => ['a', 'b', 'ab', 'c'][Math.floor(Math.random() * 4)];
    const randomPath = () => Array.from({ length: 1 + Math.floor(Math.random() * 3) }, segment).join('.');
    for (let round = 0; round < 500; round += 1) {
      const paths = Array.from({ length: 1 + Math.floor(Math.random() * 6) }, randomPath);
      const anyPair = paths.some((a, i) => paths.some((b, j) => i < j && pathsOverlap(a, b)));
      const found = overlappingPair(paths);
      expect(found !== undefined, JSON.stringify(paths)).toBe(anyPair);
      if (found) expect(pathsOverlap(found[0], found[1]) && paths.includes(found[0]) && paths.includes(found[1])).toBe(true);
    }
  });

  it('takes 50,000 paths in one pass', () => {
    const paths = Array.from({ length: 50_000 }, (_, index) => `field${index}.value`);
    expect(overlappingPair(paths)).toBeUndefined();
    expect(overlappingPair([...paths, 'field49999'])).toEqual(['field49999.value', 'field49999']);
  });
});

import { LRUCache } from 'lru-cache';
import { RE2JS } from 're2js';

/**
 * Type schema patterns run on a linear-time engine (RE2): a pattern such as `^(a+)+$` that makes a
 * backtracking engine take exponential time on a crafted value is matched in time proportional to
 * the value. RE2 has no lookarounds and no backreferences; such patterns are refused when a schema
 * is saved. Each pattern is compiled once per process (the most recently used 1,000 are kept), not
 * once per document.
 */
const compiled = new LRUCache<string, RE2JS>({ max: 1_000 });

/** The compiled pattern; throws RE2's syntax error when the pattern is not RE2 syntax. */
export function compilePattern(pattern: string): RE2JS {
  const cached = compiled.get(pattern);
  if (cached) return cached;
  const fresh = RE2JS.compile(pattern);
  compiled.set(pattern, fresh);
  return fresh;
}

/**
 * The most instructions a pattern's RE2 program may have. RE2's time per character grows with the
 * program, and large counted repetitions (`(.*){1,1000}`) make programs of thousands; ordinary
 * patterns (codes, identifiers, phone numbers) have tens to a few hundred.
 */
export const MAX_PATTERN_PROGRAM_SIZE = 2_000;

/** Why RE2 cannot compile the pattern or it is too large to run, or undefined when it can. */
export function patternProblem(pattern: string): string | undefined {
  let size: number;
  try {
    size = compilePattern(pattern).programSize();
  } catch (error) {
    return `is not supported by the linear-time pattern engine (no lookarounds or backreferences): ${(error as Error).message}`;
  }
  return size > MAX_PATTERN_PROGRAM_SIZE ? `is too large for the pattern engine (${size} instructions, at most ${MAX_PATTERN_PROGRAM_SIZE}): use fewer or smaller counted repetitions, and maxLength for lengths` : undefined;
}

import type { RE2JS } from 're2js';

/**
 * Pattern work one document's validation may do by default: for each value a pattern is checked
 * against, the pattern's RE2 program size times the value's length, summed over the document.
 * RE2 runs in time linear in the value, but the factor is the program: `^(a|aa|aaa|a?){1,150}$`
 * has about 2,000 instructions, and 200,000 characters against it held the process for most of
 * a second. Ten million steps take some tens of milliseconds at worst; an array of 10,000 emails
 * against an email pattern uses about a third of them.
 */
export const DEFAULT_PATTERN_WORK_LIMIT = 10_000_000;

/** What the pattern checks of the validation running now may still spend; validation is synchronous, so one slot. */
interface Allowance {
  remaining: number;
  /** Set when a check was refused for want of allowance: its value failed its pattern unchecked. */
  exhausted: boolean;
}

let running: Allowance | undefined;

/**
 * The pattern as Ajv runs it: each check is charged to the running allowance before RE2 runs, and
 * fails unchecked when it cannot be paid. Ajv keys compiled patterns by `toString()`, so it is the
 * pattern's own.
 */
export function meteredPattern(compiled: RE2JS): { test(value: string): boolean; toString(): string } {
  const size = compiled.programSize();
  return {
    toString: () => compiled.toString(),
    test(value) {
      if (running) {
        const cost = size * (value.length + 1);
        if (cost > running.remaining) {
          running.exhausted = true;
          return false;
        }
        running.remaining -= cost;
      }
      return compiled.test(value);
    },
  };
}

/** Runs a validation with `limit` steps of pattern work; `exhausted` tells whether a value failed its pattern unchecked. */
export function withPatternWork<T>(limit: number, validate: (exhausted: () => boolean) => T): T {
  const allowance: Allowance = { remaining: limit, exhausted: false };
  running = allowance;
  try {
    return validate(() => allowance.exhausted);
  } finally {
    running = undefined;
  }
}

/** The deepest nesting of objects and arrays a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const PLUS = 0x2b;
const DOT = 0x2e;
/** Without an exponent, a number needs more than 308 digits to overflow a double. */
const LONGEST_FINITE_PLAIN_NUMBER = 308;

export type JsonLimitViolation = 'too-deep' | 'non-finite-number';

/** Index just past the string whose opening quote is at `start - 1` (the text's length when unterminated). */
function endOfString(text: string, start: number): number {
  let quote = text.indexOf('"', start);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}

function isNumberCharacter(code: number): boolean {
  return (code >= DIGIT_0 && code <= DIGIT_9) || code === MINUS || code === PLUS || code === DOT || code === LOWER_E || code === UPPER_E;
}

/**
 * The first limit a JSON text breaks, checked in one iterative pass over its characters before
 * anything parses it: nesting deeper than `maxDepth` (deep input overflows the stack of every
 * recursive walk after the parse: validation, copies, the store), or a number that does not fit a
 * double (`1e309` parses to Infinity, which JSON cannot store and comes back as null). Malformed
 * text is left to the parser.
 */
export function findJsonLimitViolation(text: string, maxDepth = MAX_JSON_DEPTH): JsonLimitViolation | null {
  let depth = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = endOfString(text, index + 1);
      continue;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth > maxDepth) return 'too-deep';
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
    } else if (code === MINUS || (code >= DIGIT_0 && code <= DIGIT_9)) {
      const start = index;
      let exponent = false;
      while (index < text.length && isNumberCharacter(text.charCodeAt(index))) {
        const digit = text.charCodeAt(index);
        if (digit === LOWER_E || digit === UPPER_E) exponent = true;
        index += 1;
      }
      if ((exponent || index - start > LONGEST_FINITE_PLAIN_NUMBER) && Math.abs(Number(text.slice(start, index))) === Infinity) return 'non-finite-number';
      continue;
    }
    index += 1;
  }
  return null;
}

/** The path of a non-finite number in a parsed value, keys joined by dots (the JSON already passed the depth check). */
export function pathOfNonFiniteNumber(value: unknown): string | null {
  const pending: Array<{ value: unknown; path: string[] }> = [{ value, path: [] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (typeof next.value === 'number' && !Number.isFinite(next.value)) return next.path.join('.');
    if (next.value !== null && typeof next.value === 'object') {
      for (const [key, child] of Object.entries(next.value)) pending.push({ value: child, path: [...next.path, key] });
    }
  }
  return null;
}

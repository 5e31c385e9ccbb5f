import { z } from 'zod';

/** A decimal number as text: `20`, `-1`, `20.0`, `3e0`; what a number in a query string or path may be written as. */
const DECIMAL_NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * A number read from query-string or path text by `schema` (a `z.coerce.number()` chain): only
 * decimal number text reaches it. `Number()`, which coercion uses, also reads `0x10` as 16, `0b11`
 * as 3, ` 20 ` as 20, an empty value as 0 and `Infinity`; those are refused as not a number, with
 * the schema's own message. The API description still types the parameter as `schema` does.
 */
export function numberText<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (typeof value === 'string' && !DECIMAL_NUMBER.test(value) ? Number.NaN : value), schema);
}

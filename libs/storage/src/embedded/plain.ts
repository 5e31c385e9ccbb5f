export type Plain = string | number | boolean;

/** A scalar a filter can compare by equality and order: a string, a boolean or a number (not NaN). */
export function isPlain(value: unknown): value is Plain {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && !Number.isNaN(value));
}

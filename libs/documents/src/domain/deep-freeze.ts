/** Freezes a JSON value and everything in it, so that whoever holds it can only read it. */
export function deepFreeze<V>(value: V): V {
  if (value !== null && typeof value === 'object') {
    for (const field of Object.values(value)) deepFreeze(field);
    Object.freeze(value);
  }
  return value;
}

/**
 * A deep copy of a JSON value. Stored documents are JSON (the embedded log keeps them as JSON
 * lines), and a JSON round trip copies such small plain objects several times faster than
 * structuredClone.
 */
export function copyJson<V>(value: V): V {
  return JSON.parse(JSON.stringify(value)) as V;
}

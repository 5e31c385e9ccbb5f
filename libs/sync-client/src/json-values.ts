/** Why a written value cannot be sent as it is held: a value JSON cannot carry, or a key the server refuses. */
export interface ValueProblem {
  code: typeof INVALID_VALUE | typeof FORBIDDEN_KEY;
  message: string;
}

/** A value JSON cannot carry (or would carry as something else): BigInt, a cycle, NaN, a Date, a function... */
export const INVALID_VALUE = 'SYNC_INVALID_VALUE';
/** A key the server refuses in written values (`JSON_FORBIDDEN_KEY`, `DATA_INVALID_MODIFIER`): `__proto__`, `constructor`, `prototype`. */
export const FORBIDDEN_KEY = 'SYNC_FORBIDDEN_KEY';

class Refusal {
  constructor(readonly problem: ValueProblem) {}
}

const refuse = (code: ValueProblem['code'], path: string, message: string): never => {
  throw new Refusal({ code, message: `Field ${path}: ${message}` });
};

/**
 * Keys the server refuses at any depth of a written value. Its JSON body parser (libs/kit
 * json-body-parser: secure-json-parse, `protoAction` and `constructorAction` 'error') refuses a
 * whole request holding an own `__proto__` key, or a `constructor` key holding an object with an
 * own `prototype` key (400 `JSON_FORBIDDEN_KEY`, every write of a bulk request with it); the data
 * service's modifier rules (libs/documents modifier-rules, FORBIDDEN_SEGMENTS) then refuse any key
 * named `__proto__`, `constructor` or `prototype` in a written value (400 `DATA_INVALID_MODIFIER`).
 * The second rule holds the first, so it is the one matched here.
 */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

function checkKeys(object: object, path: string): void {
  // Object.keys lists an own `__proto__` key (JSON.parse makes one); `in` would see the prototype's.
  for (const key of Object.keys(object)) {
    if (FORBIDDEN_KEYS.has(key)) refuse(FORBIDDEN_KEY, join(path, key), `the server refuses keys named __proto__, constructor or prototype, at any depth`);
  }
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** What JSON makes of a value, refusing what it would drop, change or cannot write at all. */
function copy(value: unknown, path: string, ancestors: Set<object>): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // JSON.stringify writes NaN and ±Infinity as null: the server would hold another value than the copy.
      return Number.isFinite(value) ? value : refuse(INVALID_VALUE, path, `${value} is not a JSON number (JSON would send null)`);
    case 'bigint':
      return refuse(INVALID_VALUE, path, 'a BigInt is not a JSON value; store a number or a string');
    case 'undefined':
      // Reached only inside an array: an object drops an undefined property, as JSON does.
      return refuse(INVALID_VALUE, path, 'undefined in an array (JSON would send null); use null');
    case 'object': {
      if (value === null) return null;
      if (ancestors.has(value)) return refuse(INVALID_VALUE, path, 'the value contains itself (a cycle), which JSON cannot hold');
      ancestors.add(value);
      try {
        if (Array.isArray(value)) {
          const items: unknown[] = [];
          for (let index = 0; index < value.length; index += 1) {
            const itemPath = `${path}[${index}]`;
            if (!(index in value)) refuse(INVALID_VALUE, itemPath, 'a hole in an array (JSON would send null); use null');
            items.push(copy(value[index], itemPath, ancestors));
          }
          return items;
        }
        const prototype: unknown = Object.getPrototypeOf(value);
        if (prototype !== Object.prototype && prototype !== null) {
          const kind = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
          const hint = value instanceof Date ? ': store date.toISOString() or date.getTime()' : '';
          refuse(INVALID_VALUE, path, `a ${kind} is not a plain object, and JSON would not send it as it is${hint}`);
        }
        return copyFields(value as Record<string, unknown>, path, ancestors);
      } finally {
        ancestors.delete(value);
      }
    }
    default:
      // function, symbol: JSON drops them.
      return refuse(INVALID_VALUE, path, `a ${typeof value} is not a JSON value`);
  }
}

function copyFields(object: Record<string, unknown>, path: string, ancestors: Set<object>): Record<string, unknown> {
  checkKeys(object, path);
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    const value = object[key];
    if (value !== undefined) fields[key] = copy(value, join(path, key), ancestors);
  }
  return fields;
}

/**
 * A copy of written fields as the server will store them, or why they cannot be sent: every value
 * must be one JSON carries unchanged (null, booleans, finite numbers, strings, arrays without holes
 * or undefined, plain objects; an undefined property of an object is dropped, as JSON drops it),
 * and no object, at any depth, may hold a key the server refuses. With `removals`, a top-level
 * `undefined` stays (an update's "remove this field").
 */
export function jsonFields(fields: Record<string, unknown>, { removals = false }: { removals?: boolean } = {}): { fields: Record<string, unknown> } | { problem: ValueProblem } {
  try {
    checkKeys(fields, '');
    const copied: Record<string, unknown> = {};
    for (const key of Object.keys(fields)) {
      const value = fields[key];
      if (value !== undefined) copied[key] = copy(value, key, new Set([fields]));
      else if (removals) copied[key] = undefined;
    }
    return { fields: copied };
  } catch (error) {
    if (error instanceof Refusal) return { problem: error.problem };
    throw error;
  }
}


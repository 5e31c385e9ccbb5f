import type { UpdateModifier } from '@platform/storage';

/**
 * How a type's JSON Schema is stored. Its `$` keywords (`$defs`, `$ref`, `$schema`, `$comment`)
 * cannot be stored as keys: MongoDB refuses `$`-prefixed keys, and the store must never take a
 * client's `$` key for an operator. So, inside a type's `schema` only, every key starting with `$`
 * (or with the escape itself) is stored with FULLWIDTH DOLLAR SIGN (U+FF04) put in front, and that
 * one character is taken off again on read: reversible, so any key round-trips, and a schema stored
 * before (no escaped keys) reads unchanged. The schema stays an object, so modifier paths such as
 * `schema.properties.age.minimum` keep working on it.
 */
export const TYPE_SCHEMA_FIELD = 'schema';

/** The `$` keywords of the JSON Schema subset a type schema may use: the only `$` keys a client may write, and only inside a schema. */
export const JSON_SCHEMA_DOLLAR_KEYWORDS: ReadonlySet<string> = new Set(['$schema', '$defs', '$ref', '$comment']);

const ESCAPE = '\uFF04';

function escapeKey(key: string): string {
  return key.startsWith('$') || key.startsWith(ESCAPE) ? ESCAPE + key : key;
}

function unescapeKey(key: string): string {
  return key.startsWith(ESCAPE) ? key.slice(1) : key;
}

/**
 * The value with every key renamed. A part in which no key changes is the same object, not a copy:
 * a type is read on every document write, and most of a schema holds no `$` key. Safe because
 * the store hands out and takes in copies.
 */
function mapKeys(value: unknown, rename: (key: string) => string): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let items: unknown[] | undefined;
    value.forEach((item, index) => {
      const mapped = mapKeys(item, rename);
      if (!items && mapped !== item) items = value.slice(0, index);
      items?.push(mapped);
    });
    return items ?? value;
  }
  const record = value as Record<string, unknown>;
  let entries: Array<[string, unknown]> | undefined;
  Object.keys(record).forEach((key, index, keys) => {
    const name = rename(key);
    const inner = mapKeys(record[key], rename);
    if (!entries && (name !== key || inner !== record[key])) entries = keys.slice(0, index).map((earlier) => [earlier, record[earlier]]);
    entries?.push([name, inner]);
  });
  return entries ? Object.fromEntries(entries) : value;
}

/** A type record's fields as stored: its schema's `$` keys escaped. */
export function storedTypeFields<T extends Record<string, unknown>>(fields: T): T {
  if (!Object.hasOwn(fields, TYPE_SCHEMA_FIELD)) return fields;
  return { ...fields, [TYPE_SCHEMA_FIELD]: mapKeys(fields[TYPE_SCHEMA_FIELD], escapeKey) };
}

/** A stored type record as clients and validation see it: its schema's keys as they were sent. */
export function loadedTypeFields<T extends Record<string, unknown>>(stored: T): T {
  if (!Object.hasOwn(stored, TYPE_SCHEMA_FIELD)) return stored;
  return { ...stored, [TYPE_SCHEMA_FIELD]: mapKeys(stored[TYPE_SCHEMA_FIELD], unescapeKey) };
}

/** `schema.$defs.address` is stored at `schema.＄$defs.address`; paths outside the schema are left alone. */
function storedPath(path: string): string {
  const [root, ...rest] = path.split('.');
  return root === TYPE_SCHEMA_FIELD ? [root, ...rest.map(escapeKey)].join('.') : path;
}

function isEachWrapper(value: unknown): value is { $each: unknown[] } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1 && Array.isArray((value as { $each?: unknown }).$each);
}

/** The values a modifier writes into the schema, escaped like the schema they land in ($rename never touches a schema: checkClientModifier). */
function storedValue(operator: string, value: unknown): unknown {
  if (operator === '$unset') return value;
  if ((operator === '$push' || operator === '$addToSet') && isEachWrapper(value)) return { $each: mapKeys(value.$each, escapeKey) };
  return mapKeys(value, escapeKey);
}

/** A modifier of a type record as it is sent to the store: its paths and values inside the schema escaped. */
export function storedTypeModifier(modifier: UpdateModifier): UpdateModifier {
  const touchesSchema = Object.values(modifier).some((paths) => Object.keys(paths).some((path) => path.split('.')[0] === TYPE_SCHEMA_FIELD));
  if (!touchesSchema) return modifier;
  return Object.fromEntries(
    Object.entries(modifier).map(([operator, paths]) => [
      operator,
      Object.fromEntries(Object.entries(paths).map(([path, value]) => (path.split('.')[0] === TYPE_SCHEMA_FIELD ? [storedPath(path), storedValue(operator, value)] : [path, value]))),
    ]),
  );
}

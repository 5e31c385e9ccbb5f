import type { UpdateModifier } from '@platform/storage';

export interface DocumentLimits {
  maxDocumentBytes: number;
  maxArrayLength: number;
}

export type LimitProblem =
  | { kind: 'array'; field: string; message: string; limit: number; length: number }
  | { kind: 'size'; field: string; message: string; limit: number; bytes: number };

const INDEX = /^\d+$/;

/**
 * A modifier path with an array index at or past the array limit (`tags.10000000`), found before
 * anything is applied: the update engine fills the gap up to that index, so applying it first
 * would allocate the whole array only to refuse it.
 */
export function indexBeyondLimit(modifier: UpdateModifier, maxArrayLength: number): LimitProblem | undefined {
  for (const [operator, fields] of Object.entries(modifier)) {
    for (const [path, value] of Object.entries(fields)) {
      const paths = operator === '$rename' && typeof value === 'string' ? [path, value] : [path];
      for (const candidate of paths) {
        const segments = candidate.split('.');
        const at = segments.findIndex((segment) => INDEX.test(segment) && Number(segment) >= maxArrayLength);
        if (at < 0) continue;
        const field = segments.slice(0, at).join('.') || candidate;
        return { kind: 'array', field, message: `index ${segments[at]} in modifier.${operator}.${path} is past the limit of ${maxArrayLength} elements`, limit: maxArrayLength, length: Number(segments[at]) + 1 };
      }
    }
  }
  return undefined;
}

/** The first array, at any depth, longer than the limit (walked without recursion: documents may nest deeply). */
function arrayBeyondLimit(fields: Record<string, unknown>, maxArrayLength: number): LimitProblem | undefined {
  const pending: Array<[path: string, value: unknown]> = Object.entries(fields);
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [path, value] = next;
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value) && value.length > maxArrayLength) {
      return { kind: 'array', field: path, message: `would hold ${value.length} elements; the limit is ${maxArrayLength}`, limit: maxArrayLength, length: value.length };
    }
    for (const [key, inner] of Object.entries(value)) pending.push([`${path}.${key}`, inner]);
  }
  return undefined;
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

/**
 * Checks an entity's own fields as they would be stored: no array longer than the limit and no
 * more JSON bytes than the limit. A size problem names the largest of `changed` (the fields the
 * write sets) as the one that grew it, or the largest field when the write set none of them.
 */
export function limitProblem(fields: Record<string, unknown>, limits: DocumentLimits, changed: readonly string[]): LimitProblem | undefined {
  const array = arrayBeyondLimit(fields, limits.maxArrayLength);
  if (array) return array;
  const bytes = jsonBytes(fields);
  if (bytes <= limits.maxDocumentBytes) return undefined;
  const present = changed.filter((name) => fields[name] !== undefined);
  const sizes = (present.length ? present : Object.keys(fields)).map((name) => [name, jsonBytes(fields[name])] as const);
  const [field] = sizes.reduce((largest, entry) => (entry[1] > largest[1] ? entry : largest));
  return { kind: 'size', field, message: `would make the document ${bytes} bytes; the limit is ${limits.maxDocumentBytes}`, limit: limits.maxDocumentBytes, bytes };
}

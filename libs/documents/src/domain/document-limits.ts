import { MAX_JSON_DEPTH } from '@platform/kit';
import type { UpdateModifier } from '@platform/storage';

/**
 * How deep a stored document may nest: a body may nest 64 levels and a bulk create wraps each
 * document 3 levels deep (`{operations: [{fields: ...}]}`), so whatever is stored can be sent back
 * whole in any request. It also keeps every recursive walk of a stored document (copies,
 * validation, the history's replay) far from the stack's end.
 */
export const MAX_DOCUMENT_DEPTH = MAX_JSON_DEPTH - 3;

export interface DocumentLimits {
  maxDocumentBytes: number;
  maxArrayLength: number;
}

export type LimitProblem =
  | { kind: 'array'; field: string; message: string; limit: number; length: number }
  | { kind: 'depth'; field: string; message: string; limit: number }
  | { kind: 'number'; field: string; message: string }
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

/**
 * The first shape the store must not keep, at any depth: an array longer than the limit, nesting
 * deeper than MAX_DOCUMENT_DEPTH, or a number JSON cannot write (an `$inc` or `$mul` past the
 * double's range gives Infinity, which would be stored as null). Walked without recursion.
 */
function shapeProblem(fields: Record<string, unknown>, maxArrayLength: number): LimitProblem | undefined {
  // The document itself is the first level, as a request body's outer object is.
  const pending: Array<[path: string, value: unknown, depth: number]> = Object.entries(fields).map(([name, value]) => [name, value, 2]);
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [path, value, depth] = next;
    if (typeof value === 'number' && !Number.isFinite(value)) return { kind: 'number', field: path, message: 'would not be a finite number' };
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_DOCUMENT_DEPTH) return { kind: 'depth', field: path, message: `would nest the document deeper than ${MAX_DOCUMENT_DEPTH} levels`, limit: MAX_DOCUMENT_DEPTH };
    if (Array.isArray(value) && value.length > maxArrayLength) {
      return { kind: 'array', field: path, message: `would hold ${value.length} elements; the limit is ${maxArrayLength}`, limit: maxArrayLength, length: value.length };
    }
    for (const [key, inner] of Object.entries(value)) pending.push([`${path}.${key}`, inner, depth + 1]);
  }
  return undefined;
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

/**
 * Checks an entity's own fields as they would be stored: no array longer than the limit, no
 * deeper nesting than MAX_DOCUMENT_DEPTH, only finite numbers, and no more JSON bytes than the limit. A size problem names the largest of `changed` (the fields the
 * write sets) as the one that grew it, or the largest field when the write set none of them.
 */
export function limitProblem(fields: Record<string, unknown>, limits: DocumentLimits, changed: readonly string[]): LimitProblem | undefined {
  const shape = shapeProblem(fields, limits.maxArrayLength);
  if (shape) return shape;
  const bytes = jsonBytes(fields);
  if (bytes <= limits.maxDocumentBytes) return undefined;
  const present = changed.filter((name) => fields[name] !== undefined);
  const sizes = (present.length ? present : Object.keys(fields)).map((name) => [name, jsonBytes(fields[name])] as const);
  const [field] = sizes.reduce((largest, entry) => (entry[1] > largest[1] ? entry : largest));
  return { kind: 'size', field, message: `would make the document ${bytes} bytes; the limit is ${limits.maxDocumentBytes}`, limit: limits.maxDocumentBytes, bytes };
}

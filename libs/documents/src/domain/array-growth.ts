import type { UpdateModifier } from '@platform/storage';

const INDEX = /^\d+$/;

/** Operators that never add an element: removing or pulling past an array's end leaves it as it is. */
const NON_GROWING_OPERATORS: ReadonlySet<string> = new Set(['$unset', '$pull']);

export interface ArrayGrowthProblem {
  /** The array the modifier grows most. */
  field: string;
  message: string;
  limit: number;
  /** Elements the modifier would add to all arrays together. */
  elements: number;
}

/** The paths an operator writes at: `$rename` writes at its target. */
function writtenPaths(operator: string, fields: Record<string, unknown>): string[] {
  if (NON_GROWING_OPERATORS.has(operator)) return [];
  if (operator === '$rename') return Object.values(fields).filter((target): target is string => typeof target === 'string');
  return Object.keys(fields);
}

/**
 * Where `path` writes past the end of an existing array of `document`: that array's path, its
 * length and the length the write gives it. Below a missing field the engine makes objects, not
 * arrays, so only arrays the document already holds can be filled.
 */
function writePastEnd(document: object, path: string): { array: string; length: number; grownTo: number } | undefined {
  const segments = path.split('.');
  let node: unknown = document;
  for (let at = 0; at < segments.length; at += 1) {
    const segment = segments[at] as string;
    if (Array.isArray(node)) {
      if (!INDEX.test(segment)) return undefined;
      const index = Number(segment);
      if (index >= node.length) return { array: segments.slice(0, at).join('.'), length: node.length, grownTo: index + 1 };
      node = node[index];
    } else if (node !== null && typeof node === 'object' && Object.hasOwn(node, segment)) {
      node = (node as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Refuses, before it is applied, a modifier that would add more than `limit` array elements in
 * all by writing at indexes past arrays' ends (`tags.9999` on an empty `tags` adds 10,000: the
 * engine fills the gap with nulls). Each index alone is held below the array limit, but 499 such
 * paths in one modifier made millions of elements from a few kilobytes, which the size check then
 * had to walk and serialise before refusing them.
 */
export function arrayGrowthProblem(document: object, modifier: UpdateModifier, limit: number): ArrayGrowthProblem | undefined {
  // One array written at several indexes grows to the furthest of them.
  const grown = new Map<string, { length: number; grownTo: number }>();
  for (const [operator, fields] of Object.entries(modifier)) {
    for (const path of writtenPaths(operator, fields as Record<string, unknown>)) {
      const write = writePastEnd(document, path);
      if (!write) continue;
      const earlier = grown.get(write.array);
      if (!earlier || earlier.grownTo < write.grownTo) grown.set(write.array, write);
    }
  }
  let elements = 0;
  let field = '';
  let most = 0;
  for (const [array, { length, grownTo }] of grown) {
    elements += grownTo - length;
    if (grownTo - length > most) [field, most] = [array, grownTo - length];
  }
  if (elements <= limit) return undefined;
  return { field, message: `the modifier would add ${elements} array elements past the arrays' ends; at most ${limit} may be added at once`, limit, elements };
}

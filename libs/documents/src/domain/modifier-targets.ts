import type { UpdateModifier } from '@platform/storage';
import type { ModifierProblem } from './modifier-rules';

const NUMERIC_OPERATORS: ReadonlySet<string> = new Set(['$inc', '$mul']);
const ARRAY_OPERATORS: ReadonlySet<string> = new Set(['$push', '$addToSet', '$pull']);
/** Operators that create the field when it is missing, and so need a document to create it in. */
const CREATING_OPERATORS: ReadonlySet<string> = new Set(['$set', '$inc', '$mul', '$push', '$addToSet', '$min', '$max']);

type Found = { value: unknown } | { blockedBy: string };

/** The value at a dotted path, or the path of the first value on the way that is not a container. */
function lookUp(document: Record<string, unknown>, path: string): Found {
  const segments = path.split('.');
  let current: unknown = document;
  for (const [index, segment] of segments.entries()) {
    if (current === undefined) return { value: undefined };
    if (current === null || typeof current !== 'object') return { blockedBy: segments.slice(0, index).join('.') };
    current = Object.hasOwn(current, segment) ? (current as Record<string, unknown>)[segment] : undefined;
  }
  return { value: current };
}

/** Whether a dotted path passes through an array on its way (`tags.0`, `rows.2.name`). */
function throughArray(document: Record<string, unknown>, path: string): boolean {
  let current: unknown = document;
  for (const segment of path.split('.')) {
    if (Array.isArray(current)) return true;
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return false;
    current = (current as Record<string, unknown>)[segment];
  }
  return false;
}

/**
 * Operators applied to a value of a type they cannot work on, which MongoDB refuses (and the
 * embedded engine would silently skip): `$inc`/`$mul` on anything but a number, `$push`,
 * `$addToSet`/`$pull` on anything but an array, a field created inside a value that is not a
 * document or array (`$set: { 'title.x': 1 }` on a string title), and a `$rename` from or into an
 * array's element. A missing field is fine.
 */
export function targetTypeProblems(document: Record<string, unknown>, modifier: UpdateModifier): ModifierProblem[] {
  const problems: ModifierProblem[] = [];
  for (const [operator, fields] of Object.entries(modifier)) {
    for (const [path, operand] of Object.entries(fields)) {
      const at = `modifier.${operator}.${path}`;
      if (operator === '$rename' && (throughArray(document, path) || throughArray(document, operand as string))) {
        problems.push({ path: at, message: '$rename cannot move a value out of or into an array element' });
        continue;
      }
      const found = lookUp(document, path);
      if ('blockedBy' in found) {
        if (CREATING_OPERATORS.has(operator)) problems.push({ path: at, message: `cannot create a field inside ${found.blockedBy}, which is not an object or array` });
        continue;
      }
      const { value } = found;
      if (value === undefined) continue;
      if (NUMERIC_OPERATORS.has(operator) && typeof value !== 'number') problems.push({ path: at, message: `${operator} needs a number; ${path} holds ${describe(value)}` });
      if (ARRAY_OPERATORS.has(operator) && !Array.isArray(value)) problems.push({ path: at, message: `${operator} needs an array; ${path} holds ${describe(value)}` });
    }
  }
  return problems;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

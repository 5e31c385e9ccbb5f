import type { UpdateModifier } from '@platform/storage';
import { MAX_DOCUMENT_DEPTH } from './document-limits';
import { JSON_SCHEMA_DOLLAR_KEYWORDS } from './type-schema-storage';

/** Fields the server owns: no client modifier may touch them or anything below them. */
export const SYSTEM_FIELDS: ReadonlySet<string> = new Set(['id', 'revision', 'createdAt', 'updatedAt', 'deletedAt', 'changes', 'projectId', 'typeId', 'tenantId']);

/** Operators both store adapters implement with identical semantics. */
export const CLIENT_OPERATORS: ReadonlySet<string> = new Set(['$set', '$unset', '$inc', '$push', '$pull', '$addToSet', '$rename', '$min', '$max', '$mul']);

const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export const MODIFIER_LIMITS = { maxBytes: 256 * 1024, maxDepth: 16, maxPaths: 500 } as const;

export type ModifierProblem = { path: string; message: string };

function depthOf(value: unknown, depth = 0): number {
  if (value === null || typeof value !== 'object') return depth;
  let deepest = depth + 1;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child, depth + 1));
  return deepest;
}

/**
 * Finds `$`-prefixed or prototype keys anywhere inside a value (operator injection, pollution).
 * Inside a JSON Schema field the schema's own `$` keywords are allowed (the store escapes them).
 */
function unsafeKeyIn(value: unknown, at: string, inJsonSchema = false): ModifierProblem | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  for (const key of Object.keys(value)) {
    if (key.startsWith('$') && !(inJsonSchema && JSON_SCHEMA_DOLLAR_KEYWORDS.has(key))) return { path: `${at}.${key}`, message: 'operator keys are not allowed inside values' };
    if (FORBIDDEN_SEGMENTS.has(key)) return { path: `${at}.${key}`, message: `the key ${key} is not allowed` };
    const inner = unsafeKeyIn((value as Record<string, unknown>)[key], `${at}.${key}`, inJsonSchema);
    if (inner) return inner;
  }
  return undefined;
}

export interface ClientModifierOptions {
  allowAccess: boolean;
  /** Top-level fields of this collection that only another service's write sets. */
  serverOwned?: ReadonlySet<string>;
  /** Top-level fields holding a JSON Schema (a type's `schema`): its `$` keywords may appear in their paths and values. */
  jsonSchemaFields?: ReadonlySet<string>;
}

function inJsonSchemaField(path: string, { jsonSchemaFields }: ClientModifierOptions): boolean {
  return jsonSchemaFields?.has(path.split('.')[0] as string) ?? false;
}

function pathProblem(path: string, options: ClientModifierOptions): string | undefined {
  const { allowAccess, serverOwned } = options;
  const segments = path.split('.');
  if (path.length === 0 || segments.some((s) => s.length === 0)) return 'empty path segment';
  // Refused before the update engine walks it: a path this long could only nest the document too deep.
  if (segments.length > MAX_DOCUMENT_DEPTH) return `has ${segments.length} segments; documents nest at most ${MAX_DOCUMENT_DEPTH} levels`;
  // Inline rather than a named helper closure: tsx (keepNames) gives one made per call an Object.defineProperty.
  if (segments.some((s) => s.startsWith('$') && !(inJsonSchemaField(path, options) && JSON_SCHEMA_DOLLAR_KEYWORDS.has(s)))) return 'positional and operator paths are not allowed';
  if (segments.some((s) => FORBIDDEN_SEGMENTS.has(s))) return 'path segment not allowed';
  const root = segments[0] as string;
  if (root.startsWith('_')) return 'internal fields cannot be changed';
  if (SYSTEM_FIELDS.has(root)) return `${root} is managed by the server`;
  if (root === 'access' && !allowAccess) return 'changing access needs update permission on the project';
  if (serverOwned?.has(root)) return `${root} is set by the server (for applications: by publish; for visitor records: by the visitors service)`;
  return undefined;
}

/**
 * Checks a client's update modifier before anything is written: only the shared operators, each
 * with an object of field paths; no system, internal or (without permission) access fields; no
 * operator or prototype keys inside values; bounded size and depth. Answers every problem found,
 * each naming its path.
 */
export function checkClientModifier(modifier: unknown, options: ClientModifierOptions): ModifierProblem[] {
  if (modifier === null || typeof modifier !== 'object' || Array.isArray(modifier)) return [{ path: 'modifier', message: 'must be an object of update operators' }];
  const entries = Object.entries(modifier as Record<string, unknown>);
  if (entries.length === 0) return [{ path: 'modifier', message: 'must contain at least one operator' }];
  const size = Buffer.byteLength(JSON.stringify(modifier));
  if (size > MODIFIER_LIMITS.maxBytes) return [{ path: 'modifier', message: `is ${size} bytes; the limit is ${MODIFIER_LIMITS.maxBytes}` }];
  if (depthOf(modifier) > MODIFIER_LIMITS.maxDepth) return [{ path: 'modifier', message: `nests deeper than ${MODIFIER_LIMITS.maxDepth} levels` }];

  const problems: ModifierProblem[] = [];
  let pathCount = 0;
  for (const [operator, fields] of entries) {
    if (!CLIENT_OPERATORS.has(operator)) {
      problems.push({ path: `modifier.${operator}`, message: `unsupported operator; allowed: ${[...CLIENT_OPERATORS].join(', ')}` });
      continue;
    }
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields) || Object.keys(fields).length === 0) {
      problems.push({ path: `modifier.${operator}`, message: 'must be a non-empty object of field paths' });
      continue;
    }
    for (const [path, value] of Object.entries(fields as Record<string, unknown>)) {
      pathCount += 1;
      const problem = pathProblem(path, options);
      if (problem) problems.push({ path: `modifier.${operator}.${path}`, message: problem });
      const inJsonSchema = inJsonSchemaField(path, options);
      if (operator === '$rename') {
        const target = typeof value === 'string' ? pathProblem(value, options) : 'must name the new path as a string';
        if (target) problems.push({ path: `modifier.${operator}.${path}`, message: `rename target: ${target}` });
        // The store escapes a schema's keys but not the fields a rename would move in or out of it.
        else if (inJsonSchema || inJsonSchemaField(value as string, options)) problems.push({ path: `modifier.${operator}.${path}`, message: 'a schema changes with $set, $unset and the array operators, not $rename' });
      } else if (operator === '$inc' || operator === '$mul') {
        if (typeof value !== 'number' || !Number.isFinite(value)) problems.push({ path: `modifier.${operator}.${path}`, message: 'must be a finite number' });
      } else if ((operator === '$push' || operator === '$addToSet') && isEachWrapper(value)) {
        const inner = unsafeKeyIn((value as { $each: unknown }).$each, `modifier.${operator}.${path}.$each`, inJsonSchema);
        if (inner) problems.push(inner);
      } else {
        const unsafe = unsafeKeyIn(value, `modifier.${operator}.${path}`, inJsonSchema);
        if (unsafe) problems.push(unsafe);
      }
    }
  }
  if (pathCount > MODIFIER_LIMITS.maxPaths) problems.push({ path: 'modifier', message: `touches ${pathCount} paths; the limit is ${MODIFIER_LIMITS.maxPaths}` });
  return problems;
}

/**
 * Checks the fields of a new record (a create's body, a visitor record's data), problems named
 * under `at` (`body`, `data`): each top-level key names one field, so none may hold a `.` (the
 * history records a create as a `$set` of its fields, where `a.b` means field b inside a, and no
 * later modifier path could name such a field); then the client rules of a `$set` of them. Keys
 * deeper down may hold dots (translation keys, host names): they are values' keys, not paths.
 */
export function checkNewFields(fields: Record<string, unknown>, at: string, options: ClientModifierOptions): ModifierProblem[] {
  const dotted = Object.keys(fields).filter((key) => key.includes('.'));
  const problems = dotted.length
    ? dotted.map((key) => ({ path: `modifier.$set.${key}`, message: "a field name may not contain '.'; nest an object instead" }))
    : checkClientModifier({ $set: fields }, options);
  return problems.map((problem) => ({ ...problem, path: problem.path.replace(/^modifier\.\$set/, at) }));
}

/** `$push`/`$addToSet` may wrap several values as `{ $each: [...] }`, the one allowed `$` key in a value. */
function isEachWrapper(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1 && Array.isArray((value as { $each?: unknown }).$each);
}

/** The top-level field paths a modifier changes (rename counts both ends). */
export function touchedPaths(modifier: UpdateModifier): string[] {
  const paths = new Set<string>();
  for (const [operator, fields] of Object.entries(modifier)) {
    for (const [path, value] of Object.entries(fields)) {
      paths.add(path);
      if (operator === '$rename' && typeof value === 'string') paths.add(value);
    }
  }
  return [...paths];
}

import { Ajv2020, type ErrorObject, type Format, type ValidateFunction } from 'ajv/dist/2020.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { DataLimits } from '../config';
import { deepFreeze } from './deep-freeze';
import { currentTypeSchema } from './legacy-type-schema';
import { DEFAULT_PATTERN_WORK_LIMIT, meteredPattern, withPatternWork } from './pattern-work';
import { compilePattern } from './patterns';
import { RESERVED_SCHEMA_FIELD_NAMES } from './reserved-fields';
import { SUPPORTED_FORMATS, type SchemaProblem, type TypeSchema } from './type-schema';
import { fieldOf, validationBudgetKeyword, withBudgetChecks, withinBudget, type ValidationOptions } from './validation-budget';

/** A formatted value longer than this fails its format without running the format's regular expression. */
export const MAX_FORMATTED_LENGTH = 2_048;

/** Patterns run on RE2 (linear time, compiled once per pattern), never on the backtracking engine, and within the document's pattern work. */
const re2RegExp = Object.assign((pattern: string) => meteredPattern(compilePattern(pattern)), { code: 're2js' });

/** A format's check, refusing values too long to run a format's regular expression on. */
function boundedFormat(format: Format): (value: string) => boolean {
  const check = typeof format === 'object' && !(format instanceof RegExp) ? format.validate : format;
  const test = check instanceof RegExp ? (value: string) => check.test(value) : typeof check === 'function' ? (value: string) => Boolean((check as (data: string) => boolean)(value)) : () => true;
  return (value) => value.length <= MAX_FORMATTED_LENGTH && test(value);
}

const ajv = new Ajv2020({
  strict: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  allErrors: false,
  // 9.99 is a multiple of 0.01 although 9.99 / 0.01 is not exactly whole in floating point.
  multipleOfPrecision: 9,
  // A schema carrying an $id must not become resolvable from other types' schemas.
  addUsedSchema: false,
  code: { regExp: re2RegExp },
});
for (const name of SUPPORTED_FORMATS) ajv.addFormat(name, boundedFormat(fullFormats[name]));
ajv.addKeyword(validationBudgetKeyword);

type Compiled = { validate: ValidateFunction; compiled: object } | { problem: string };

/**
 * Compiled validators by schema text: a type's revision compiles once per process, however many
 * documents are written. Ajv keeps each compiled schema too; it forgets it when the entry leaves.
 */
const validators = new LRUCache<string, Compiled>({
  max: 500,
  dispose: (entry) => {
    if ('compiled' in entry) ajv.removeSchema(entry.compiled);
  },
});

function compiled(schema: TypeSchema): Compiled {
  const key = JSON.stringify(schema);
  const cached = validators.get(key);
  if (cached) return cached;
  const prepared = withBudgetChecks(schema);
  // An $id of its own, so `#` resolves to this schema's root; not registered (addUsedSchema), so no other schema can reach it.
  const identified = { ...prepared, $id: `urn:platform:type-schema:${randomUUID()}` };
  let entry: Compiled;
  try {
    entry = { validate: ajv.compile(identified), compiled: identified };
  } catch (error) {
    ajv.removeSchema(identified);
    entry = { problem: (error as Error).message };
  }
  validators.set(key, entry);
  return entry;
}

/** Why Ajv cannot compile the schema (an unresolvable reference, say), or undefined when it can. */
export function compileProblem(schema: TypeSchema): { path: string[]; message: string } | undefined {
  const entry = compiled(schema);
  return 'problem' in entry ? { path: [], message: `is not a JSON Schema the server can check: ${entry.problem}` } : undefined;
}

function problemOf(error: ErrorObject, patternWorkExhausted: boolean, patternWorkLimit: number): SchemaProblem {
  const at = fieldOf(error.instancePath);
  const join = (name: string) => (at ? `${at}.${name}` : name);
  // With allErrors off, the first failure ends the validation: the refused check is this one.
  if (error.keyword === 'pattern' && patternWorkExhausted) return { field: at || 'body', message: `is too long to check against its pattern (the document's pattern checks may take ${patternWorkLimit} steps: pattern size times value length)` };
  const rule = { keyword: error.keyword, params: error.params };
  if (error.keyword === 'required') return { field: join(String(error.params.missingProperty)), message: 'is required', ...rule };
  if (error.keyword === 'additionalProperties') return { field: join(String(error.params.additionalProperty)), message: 'is not a field of this type', ...rule };
  return { field: at || 'body', message: error.message ?? `fails ${error.keyword}`, ...rule };
}

/**
 * The document's fields a schema governs: reserved ones (access, server-set fields) only when the
 * schema names them. The document itself when it holds none to leave out, which is the usual case.
 */
function governedFields(schema: TypeSchema, document: Record<string, unknown>): Record<string, unknown> {
  const named = schema.properties ?? {};
  const ungoverned = (name: string) => RESERVED_SCHEMA_FIELD_NAMES.has(name) && !Object.hasOwn(named, name);
  const names = Object.keys(document);
  if (!names.some(ungoverned)) return document;
  return Object.fromEntries(names.filter((name) => !ungoverned(name)).map((name) => [name, document[name]]));
}

/** A pinned schema as validation reads it (an old-dialect one converted once), and its validator once needed. */
interface PinnedSchema {
  schema: TypeSchema | undefined;
  entry?: Compiled;
}

/**
 * Schemas pinned by pinTypeSchema, by identity. They are frozen, so such an object can never come
 * to hold another schema: its validator is found without serializing the schema to look it up.
 */
const pinned = new WeakMap<object, PinnedSchema>();

/**
 * Freezes a stored type schema (deeply, in place) and remembers it, so that validating against
 * this same object later skips the lookup by schema text. For a schema object many validations
 * share (the type directory's copy of a type revision); whoever holds it can no longer change it.
 */
export function pinTypeSchema<T>(stored: T): T {
  if (stored === null || typeof stored !== 'object' || pinned.has(stored)) return stored;
  pinned.set(deepFreeze(stored), { schema: currentTypeSchema(stored) });
  return stored;
}

/** The schema to validate with and its compiled validator; none when the stored schema is absent. */
function validatorFor(stored: unknown): { schema: TypeSchema; entry: Compiled } | undefined {
  const known = stored !== null && typeof stored === 'object' ? pinned.get(stored) : undefined;
  if (known) {
    if (!known.schema) return undefined;
    known.entry ??= compiled(known.schema);
    return { schema: known.schema, entry: known.entry };
  }
  const schema = currentTypeSchema(stored);
  return schema && { schema, entry: compiled(schema) };
}

/** What a service's limits allow one document's validation: its time budget and its pattern work. */
export function validationOptions(limits: Pick<DataLimits, 'validationBudgetMs' | 'patternWorkLimit'>): ValidationOptions {
  return { budgetMs: limits.validationBudgetMs, patternWorkLimit: limits.patternWorkLimit };
}

/**
 * Checks a whole document against its type's schema (JSON Schema, or a stored old-dialect schema
 * read as its JSON Schema) with Ajv; the first problem found, naming its field. A stored schema
 * Ajv cannot compile fails closed. With a budget, throws ValidationBudgetExceededError once the
 * check has used more CPU time than it. A value whose pattern check would pass the document's
 * pattern work (options.patternWorkLimit) fails its pattern without RE2 running, as a problem.
 */
export function validateDocument(stored: unknown, document: Record<string, unknown>, options: ValidationOptions = {}): SchemaProblem[] {
  const validator = validatorFor(stored);
  if (!validator) return [];
  const { schema, entry } = validator;
  if ('problem' in entry) return [{ field: 'schema', message: `cannot be checked: the type's schema is not supported (${entry.problem}); change the type schema` }];
  const patternWorkLimit = options.patternWorkLimit ?? DEFAULT_PATTERN_WORK_LIMIT;
  try {
    return withinBudget(options, () =>
      withPatternWork(patternWorkLimit, (exhausted) => (entry.validate(governedFields(schema, document)) ? [] : (entry.validate.errors ?? []).map((error) => problemOf(error, exhausted(), patternWorkLimit)))),
    );
  } catch (error) {
    // A schema stored before reference cycles were refused at save (type-schema.ts, referenceCycle): fail closed.
    if (error instanceof RangeError) return [{ field: 'schema', message: "cannot be checked: the type's schema refers back to itself without end; change the type schema" }];
    throw error;
  }
}

import { z } from 'zod';
import { matchesPattern, patternProblem } from './patterns';
import { RESERVED_SCHEMA_FIELD_NAMES } from './reserved-fields';

export const fieldTypes = ['string', 'number', 'integer', 'boolean', 'timestamp', 'object', 'array'] as const;

/** The largest minLength or maxLength a schema may give: sample data pads values up to minLength. */
export const MAX_SCHEMA_LENGTH = 100_000;

export interface FieldDefinition {
  type: (typeof fieldTypes)[number];
  required?: boolean;
  title?: string;
  description?: string;
  enum?: Array<string | number>;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  /** Element definition of an array. */
  items?: FieldDefinition;
  /** Nested fields of an object. */
  fields?: Record<string, FieldDefinition>;
}

const fieldName = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'field names start with a letter and hold letters, digits and _');

const pattern = z
  .string()
  .max(500)
  .superRefine((value, context) => {
    const problem = patternProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** Bounds no value could satisfy; refused when the schema is saved rather than failing every write. */
function checkBounds(definition: FieldDefinition, context: z.RefinementCtx): void {
  const { minLength, maxLength, minimum, maximum } = definition;
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) context.addIssue({ code: 'custom', path: ['minLength'], message: `must not exceed maxLength (${maxLength})` });
  if (minimum === undefined || maximum === undefined) return;
  if (minimum > maximum) context.addIssue({ code: 'custom', path: ['minimum'], message: `must not exceed maximum (${maximum})` });
  else if (definition.type !== 'number' && Math.ceil(minimum) > Math.floor(maximum)) context.addIssue({ code: 'custom', path: ['minimum'], message: `no whole number lies between minimum and maximum (${maximum})` });
}

export const fieldDefinitionSchema: z.ZodType<FieldDefinition> = z.lazy(() =>
  z
    .object({
      type: z.enum(fieldTypes),
      required: z.boolean().optional(),
      title: z.string().max(200).optional(),
      description: z.string().max(2000).optional(),
      enum: z.array(z.union([z.string(), z.number()])).min(1).max(500).optional(),
      minLength: z.number().int().min(0).max(MAX_SCHEMA_LENGTH).optional(),
      maxLength: z.number().int().min(0).max(MAX_SCHEMA_LENGTH).optional(),
      minimum: z.number().optional(),
      maximum: z.number().optional(),
      pattern: pattern.optional(),
      items: fieldDefinitionSchema.optional(),
      fields: z.record(fieldName, fieldDefinitionSchema).optional(),
    })
    .strict()
    .superRefine(checkBounds),
);

/** The schema a type may carry: its documents' fields. */
export const typeSchemaSchema = z
  .object({ fields: z.record(fieldName, fieldDefinitionSchema) })
  .strict()
  .superRefine(({ fields }, context) => {
    for (const name of Object.keys(fields)) {
      if (RESERVED_SCHEMA_FIELD_NAMES.has(name)) context.addIssue({ code: 'custom', path: ['fields', name], message: `${name} is reserved for the server and row-level security` });
    }
  });
export type TypeSchema = z.infer<typeof typeSchemaSchema>;

export interface SchemaProblem {
  field: string;
  message: string;
}

/** Validation took longer than its budget; thrown, so a write stops rather than waiting longer. */
export class ValidationBudgetExceededError extends Error {
  constructor(
    readonly budgetMs: number,
    /** The field being checked when the budget ran out. */
    readonly field: string,
  ) {
    super(`validating the document took longer than ${budgetMs} ms (at ${field})`);
    this.name = 'ValidationBudgetExceededError';
  }
}

export interface ValidationOptions {
  /** Refuse (throw ValidationBudgetExceededError) once validation has used this much CPU time; no limit when absent. */
  budgetMs?: number;
  /** The process's CPU time in milliseconds; a test passes its own clock. */
  cpuMs?: () => number;
}

/** The clock is read once per this many values: reading it costs a system call. */
const VALUES_PER_BUDGET_CHECK = 32;

function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1_000;
}

/**
 * One document's validation: the problems found and the time it may still take. The budget counts
 * CPU time, not wall time: a process that the machine deschedules for a while has not spent that
 * time validating, and would otherwise refuse small documents under load.
 */
class Validation {
  readonly problems: SchemaProblem[] = [];
  private readonly cpuMs: () => number;
  private readonly startedAt: number;
  private values = 0;

  constructor(private readonly budgetMs: number | undefined, cpuMs: (() => number) | undefined) {
    this.cpuMs = cpuMs ?? processCpuMs;
    this.startedAt = budgetMs === undefined ? 0 : this.cpuMs();
  }

  /** Called before each value: a document of many values, or of long patterned strings, stops at the budget. */
  checkBudget(path: string): void {
    if (this.budgetMs === undefined) return;
    this.values += 1;
    if (this.values % VALUES_PER_BUDGET_CHECK !== 0) return;
    if (this.cpuMs() - this.startedAt > this.budgetMs) throw new ValidationBudgetExceededError(this.budgetMs, path);
  }
}

function patternMismatch(pattern: string, value: string): string | undefined {
  try {
    return matchesPattern(pattern, value) ? undefined : `must match ${pattern}`;
  } catch {
    // Saved before patterns were checked: fail closed, never fall back to a backtracking engine.
    return `cannot be checked: the type's pattern ${pattern} is not supported; change the type schema`;
  }
}

function checkValue(definition: FieldDefinition, value: unknown, path: string, validation: Validation): void {
  validation.checkBudget(path);
  const fail = (message: string): void => {
    validation.problems.push({ field: path, message });
  };
  switch (definition.type) {
    case 'string': {
      if (typeof value !== 'string') return fail('must be a string');
      if (definition.minLength !== undefined && value.length < definition.minLength) fail(`must have at least ${definition.minLength} characters`);
      if (definition.maxLength !== undefined && value.length > definition.maxLength) fail(`must have at most ${definition.maxLength} characters`);
      const mismatch = definition.pattern === undefined ? undefined : patternMismatch(definition.pattern, value);
      if (mismatch) fail(mismatch);
      break;
    }
    case 'number':
    case 'integer':
    case 'timestamp':
      if (typeof value !== 'number' || !Number.isFinite(value)) return fail('must be a number');
      if (definition.type !== 'number' && !Number.isInteger(value)) return fail('must be a whole number');
      if (definition.minimum !== undefined && value < definition.minimum) fail(`must be at least ${definition.minimum}`);
      if (definition.maximum !== undefined && value > definition.maximum) fail(`must be at most ${definition.maximum}`);
      break;
    case 'boolean':
      if (typeof value !== 'boolean') return fail('must be true or false');
      break;
    case 'array':
      if (!Array.isArray(value)) return fail('must be an array');
      if (definition.items) value.forEach((item, index) => checkValue(definition.items as FieldDefinition, item, `${path}.${index}`, validation));
      break;
    case 'object':
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail('must be an object');
      if (definition.fields) checkFields(definition.fields, value as Record<string, unknown>, `${path}.`, validation);
      break;
  }
  if (definition.enum && !definition.enum.includes(value as string | number)) fail(`must be one of ${definition.enum.join(', ')}`);
}

function checkFields(fields: Record<string, FieldDefinition>, document: Record<string, unknown>, prefix: string, validation: Validation): void {
  for (const [name, definition] of Object.entries(fields)) {
    const value = document[name];
    if (value === undefined || value === null) {
      if (definition.required) validation.problems.push({ field: `${prefix}${name}`, message: 'is required' });
      continue;
    }
    checkValue(definition, value, `${prefix}${name}`, validation);
  }
}

/**
 * Checks a whole document against its type's schema. Fields the schema does not name are allowed
 * (types evolve; clients may carry extra data); named fields must match their definition. With a
 * budget, throws ValidationBudgetExceededError once the check has used more CPU time than it.
 */
export function validateDocument(schema: TypeSchema | undefined, document: Record<string, unknown>, options: ValidationOptions = {}): SchemaProblem[] {
  if (!schema) return [];
  const validation = new Validation(options.budgetMs, options.cpuMs);
  checkFields(schema.fields, document, '', validation);
  return validation.problems;
}

import { z } from 'zod';

export const fieldTypes = ['string', 'number', 'integer', 'boolean', 'timestamp', 'object', 'array'] as const;

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

export const fieldDefinitionSchema: z.ZodType<FieldDefinition> = z.lazy(() =>
  z
    .object({
      type: z.enum(fieldTypes),
      required: z.boolean().optional(),
      title: z.string().max(200).optional(),
      description: z.string().max(2000).optional(),
      enum: z.array(z.union([z.string(), z.number()])).min(1).max(500).optional(),
      minLength: z.number().int().min(0).optional(),
      maxLength: z.number().int().min(0).optional(),
      minimum: z.number().optional(),
      maximum: z.number().optional(),
      pattern: z
        .string()
        .max(500)
        .refine((p) => {
          try {
            new RegExp(p);
            return true;
          } catch {
            return false;
          }
        }, 'must be a valid regular expression')
        .optional(),
      items: fieldDefinitionSchema.optional(),
      fields: z.record(fieldName, fieldDefinitionSchema).optional(),
    })
    .strict(),
);

/** The schema a type may carry: its documents' fields. */
export const typeSchemaSchema = z.object({ fields: z.record(fieldName, fieldDefinitionSchema) }).strict();
export type TypeSchema = z.infer<typeof typeSchemaSchema>;

export interface SchemaProblem {
  field: string;
  message: string;
}

function checkValue(definition: FieldDefinition, value: unknown, path: string, problems: SchemaProblem[]): void {
  const fail = (message: string): void => {
    problems.push({ field: path, message });
  };
  switch (definition.type) {
    case 'string':
      if (typeof value !== 'string') return fail('must be a string');
      if (definition.minLength !== undefined && value.length < definition.minLength) fail(`must have at least ${definition.minLength} characters`);
      if (definition.maxLength !== undefined && value.length > definition.maxLength) fail(`must have at most ${definition.maxLength} characters`);
      if (definition.pattern !== undefined && !new RegExp(definition.pattern).test(value)) fail(`must match ${definition.pattern}`);
      break;
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
      if (definition.items) value.forEach((item, index) => checkValue(definition.items as FieldDefinition, item, `${path}.${index}`, problems));
      break;
    case 'object':
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail('must be an object');
      if (definition.fields) checkFields(definition.fields, value as Record<string, unknown>, `${path}.`, problems);
      break;
  }
  if (definition.enum && !definition.enum.includes(value as string | number)) fail(`must be one of ${definition.enum.join(', ')}`);
}

function checkFields(fields: Record<string, FieldDefinition>, document: Record<string, unknown>, prefix: string, problems: SchemaProblem[]): void {
  for (const [name, definition] of Object.entries(fields)) {
    const value = document[name];
    if (value === undefined || value === null) {
      if (definition.required) problems.push({ field: `${prefix}${name}`, message: 'is required' });
      continue;
    }
    checkValue(definition, value, `${prefix}${name}`, problems);
  }
}

/**
 * Checks a whole document against its type's schema. Fields the schema does not name are allowed
 * (types evolve; clients may carry extra data); named fields must match their definition.
 */
export function validateDocument(schema: TypeSchema | undefined, document: Record<string, unknown>): SchemaProblem[] {
  if (!schema) return [];
  const problems: SchemaProblem[] = [];
  checkFields(schema.fields, document, '', problems);
  return problems;
}

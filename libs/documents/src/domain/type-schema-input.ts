import { z } from 'zod';
import { isLegacyTypeSchema, jsonSchemaFromLegacy, legacyTypeSchemaSchema } from './legacy-type-schema';
import { compileProblem } from './schema-validator';
import { typeSchemaSchema, type TypeSchema } from './type-schema';

/** The schema's rules, then Ajv compiles it (its references resolve); a pipe stops at the first failing step. */
const compilableTypeSchema = typeSchemaSchema.pipe(
  z.custom<TypeSchema>().superRefine((schema, context) => {
    const problem = compileProblem(schema);
    if (problem) context.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  }),
);

/**
 * A type schema as a client sends it: JSON Schema, or for one more release the old dialect, which
 * is checked by its own rules (errors name its paths, `fields.code.pattern`) and converted to JSON
 * Schema, so what is stored is always JSON Schema.
 */
export const typeSchemaInputSchema: z.ZodType<TypeSchema> = z.unknown().transform((value, context) => {
  const legacy = isLegacyTypeSchema(value) ? legacyTypeSchemaSchema.safeParse(value) : undefined;
  const result = legacy && !legacy.success ? legacy : compilableTypeSchema.safeParse(legacy ? jsonSchemaFromLegacy(legacy.data) : value);
  if (result.success) return result.data as TypeSchema;
  for (const issue of result.error.issues) context.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
}) as unknown as z.ZodType<TypeSchema>;

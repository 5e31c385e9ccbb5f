import { typeSchemaInputSchema, type TypeSchema } from '@platform/documents';
import { dataError } from '../errors';

/**
 * A type's stored schema re-checked by today's rules before a generator uses it (an old-dialect one
 * converted): a schema saved before them (reserved names, unsatisfiable bounds, patterns RE2 cannot
 * run) is refused with 400 naming its field at `field` rather than failing inside the generator.
 */
export function checkedTypeSchema(stored: unknown, field: string): TypeSchema {
  const checked = typeSchemaInputSchema.safeParse(stored);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  const named = [field, ...(issue?.path ?? []).map(String)].join('.');
  throw dataError('DATA_TYPE_SCHEMA_INVALID', { message: `Invalid ${named}: ${issue?.message ?? 'invalid'}`, details: { field: named } });
}

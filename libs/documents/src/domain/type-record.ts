import { accessSchema } from '@platform/contracts';
import { z } from 'zod';
import { ID_PATTERN, RESERVED_TYPE_IDS } from './collections';
import { typeSchemaInputSchema } from './type-schema-input';

/**
 * A type record (an entity of `tenant-{projectId}-types`). The spec names `syncType` and
 * `defaultAccess`; `name`, `title` and `schema` (JSON Schema; the old dialect is converted) are
 * ours. Unknown extra fields are kept.
 */
export const typeRecordSchema = z
  .object({
    name: z.string().min(1).max(200),
    title: z.record(z.string(), z.string()).optional(),
    syncType: z.enum(['remote', 'localOnly']).default('remote'),
    defaultAccess: accessSchema.optional(),
    schema: typeSchemaInputSchema.optional(),
    access: accessSchema.optional(),
  })
  .loose();

export type TypeRecord = z.infer<typeof typeRecordSchema>;

export const typeIdSchema = z
  .string()
  .regex(ID_PATTERN, 'ids hold 1 to 64 letters, digits, _ or -')
  .refine((id) => !RESERVED_TYPE_IDS.has(id), 'types, applications and ai-agents are reserved names');

/** An application record (an entity of `tenant-{projectId}-applications`). */
export const applicationRecordSchema = z
  .object({
    title: z.record(z.string(), z.string()).default({}),
    routes: z.array(z.unknown()).default([]),
    serverConfiguration: z.record(z.string(), z.unknown()).default({}),
    access: accessSchema.optional(),
  })
  .loose();

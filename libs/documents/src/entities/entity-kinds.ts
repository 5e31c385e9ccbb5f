import type { Access } from '@platform/contracts';
import { rlsAllows } from '@platform/kit';
import { z } from 'zod';
import { visitorTypeBinding } from '../domain/check-in-bindings';
import { ID_PATTERN } from '../domain/collections';
import { mayManageType, defaultAccessPaths } from '../domain/type-access';
import { applicationRecordSchema, typeIdSchema, typeRecordSchema } from '../domain/type-record';
import { SERVER_SET_DOCUMENT_FIELDS } from '../domain/reserved-fields';
import { isLegacyTypeSchema, jsonSchemaFromLegacy } from '../domain/legacy-type-schema';
import { validateDocument, validationOptions } from '../domain/schema-validator';
import { ValidationBudgetExceededError } from '../domain/validation-budget';
import type { SchemaProblem } from '../domain/type-schema';
import { TYPE_SCHEMA_FIELD } from '../domain/type-schema-storage';
import { TypeDirectory } from './type-directory';
import { documentError } from '../errors';
import type { EntityKind } from './entity-kind';
import type { DataLimits } from '../config';

/** A type's `schema` is JSON Schema: its `$` keywords may be written there (the store escapes them). */
const TYPE_SCHEMA_FIELDS: ReadonlySet<string> = new Set([TYPE_SCHEMA_FIELD]);

const projectId = z.string().regex(ID_PATTERN, 'ids hold 1 to 64 letters, digits, _ or -');

function zodProblems(result: { success: boolean; error?: z.ZodError }): Array<{ field: string; message: string }> {
  return result.success ? [] : (result.error?.issues ?? []).map((issue) => ({ field: issue.path.join('.') || 'body', message: issue.message }));
}

/** Schema validation with a time budget (past it the write is refused, 422 DATA_VALIDATION_TOO_SLOW, rather than waited for) and the limit on pattern work. */
export function validateWithinBudget(schema: unknown, fields: Record<string, unknown>, limits: DataLimits): SchemaProblem[] {
  try {
    return validateDocument(schema, fields, validationOptions(limits));
  } catch (error) {
    if (!(error instanceof ValidationBudgetExceededError)) throw error;
    throw documentError('DATA_VALIDATION_TOO_SLOW', { message: `Invalid ${error.field}: ${error.message}`, details: { field: error.field, budgetMs: error.budgetMs } });
  }
}

/**
 * The documents' validator for one request. Returned from a function, not written as an arrow in
 * the kind's object literal: tsx (keepNames) gives a named closure made per request an
 * Object.defineProperty.
 */
function schemaValidator(schema: unknown, limits: DataLimits): (fields: Record<string, unknown>) => SchemaProblem[] {
  return (fields) => validateWithinBudget(schema, fields, limits);
}

/** Documents of a type: `/api/projects/{projectId}/types/{typeId}/data`. */
export const documentsKind: EntityKind<{ projectId: typeof projectId; typeId: typeof typeIdSchema }> = {
  tag: 'documents',
  bodyDescription:
    "The full document as free JSON; when its type has a schema, the fields follow that JSON Schema (GET .../types/{typeId}/schema; TypeScript declarations at /api/projects/{projectId}/types.d.ts)",
  basePath: '/api/projects/:projectId/types/:typeId/data',
  params: z.object({ projectId, typeId: typeIdSchema }),
  async resolve(deps, params, { caller }) {
    const type = await deps.types.requireReadable(params.projectId, params.typeId, caller);
    return {
      scope: TypeDirectory.documentsScope(params.projectId, params.typeId),
      validate: schemaValidator(type.schema, deps.limits),
      defaultAccess: type.defaultAccess,
      serverOwnedFields: SERVER_SET_DOCUMENT_FIELDS,
      ...(type.syncType === 'localOnly' ? { refuseWrites: documentError('DATA_LOCAL_ONLY_TYPE') } : {}),
    };
  },
};

/**
 * Types of a project: `/api/projects/{projectId}/types`. Guarded like the project: creating,
 * changing and deleting a type needs the project's update permission unless the type's own rule
 * grants it (mayManageType); its `access` and `defaultAccess` always need the project's.
 */
export const typesKind: EntityKind<{ projectId: typeof projectId }> = {
  tag: 'types',
  bodySchema: typeRecordSchema,
  basePath: '/api/projects/:projectId/types',
  params: z.object({ projectId }),
  async resolve(deps, params, { caller, projectAccess }) {
    const projectUpdater = rlsAllows(projectAccess, 'update', caller);
    return {
      scope: TypeDirectory.typesScope(params.projectId),
      validate: (fields) => {
        // On a patch, `access` is the type's own (only the project's updaters may change it).
        if (!mayManageType('update', { caller, projectAccess, typeAccess: fields.access as Access | undefined })) {
          throw documentError('DATA_FORBIDDEN', { message: 'Creating or changing a type needs the update permission on the project' });
        }
        return zodProblems(typeRecordSchema.safeParse(fields));
      },
      // Validated above: an old-dialect schema is stored as its JSON Schema.
      prepare: (fields) => (isLegacyTypeSchema(fields.schema) ? { ...fields, schema: jsonSchemaFromLegacy(fields.schema) } : fields),
      checkModifier: (modifier) => {
        const touched = projectUpdater ? [] : defaultAccessPaths(modifier);
        if (touched.length) {
          throw documentError('DATA_FORBIDDEN', { message: `Invalid ${touched[0]}: changing a type's defaultAccess needs the update permission on the project`, details: { paths: touched } });
        }
      },
      mayUpdate: (type) => mayManageType('update', { caller, projectAccess, typeAccess: type.access }),
      mayDelete: (type) => mayManageType('delete', { caller, projectAccess, typeAccess: type.access }),
      checkNewId: async (id) => {
        const existing = await deps.types.find(params.projectId, id);
        if (existing?.deletedAt !== undefined) {
          throw documentError('DATA_TYPE_DELETED', {
            message: `Type ${id} was deleted; restore it with POST /api/projects/${params.projectId}/types/${id}/restore`,
            details: { id, restore: `/api/projects/${params.projectId}/types/${id}/restore` },
          });
        }
      },
      idSchema: typeIdSchema,
      jsonSchemaFields: TYPE_SCHEMA_FIELDS,
    };
  },
};

/** Set only by the publishing service's publish step (through the writer), never by clients. */
const APPLICATION_PUBLISH_FIELDS: ReadonlySet<string> = new Set(['publishedVersionNumber', 'publishedVersionId', 'publishedAt']);

/** Applications of a project: `/api/projects/{projectId}/applications`. */
export const applicationsKind: EntityKind<{ projectId: typeof projectId }> = {
  tag: 'applications',
  bodySchema: applicationRecordSchema,
  basePath: '/api/projects/:projectId/applications',
  params: z.object({ projectId }),
  async resolve(_deps, params, { caller, projectAccess }) {
    return {
      scope: TypeDirectory.applicationsScope(params.projectId),
      validate: (fields) => {
        // A CheckIn widget naming a visitor type opens that type to anonymous writes (visitors API).
        const binding = visitorTypeBinding(fields);
        if (binding && !rlsAllows(projectAccess, 'update', caller)) {
          throw documentError('DATA_FORBIDDEN', {
            message: `CheckIn widget ${binding.widgetId} names the visitor type ${binding.typeId}: binding a type to the public visitors API needs the update permission on the project`,
            details: binding,
          });
        }
        return zodProblems(applicationRecordSchema.safeParse(fields));
      },
      serverOwnedFields: APPLICATION_PUBLISH_FIELDS,
    };
  },
};

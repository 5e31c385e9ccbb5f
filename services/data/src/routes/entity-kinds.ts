import { z } from 'zod';
import { ID_PATTERN } from '../domain/collections';
import { applicationRecordSchema, typeIdSchema, typeRecordSchema } from '../domain/type-record';
import { validateDocument } from '../domain/type-schema';
import { TypeDirectory } from '../entities/type-directory';
import { dataError } from '../errors';
import type { EntityKind } from './entity-routes';

const projectId = z.string().regex(ID_PATTERN, 'ids hold 1 to 64 letters, digits, _ or -');

function zodProblems(result: { success: boolean; error?: z.ZodError }): Array<{ field: string; message: string }> {
  return result.success ? [] : (result.error?.issues ?? []).map((issue) => ({ field: issue.path.join('.') || 'body', message: issue.message }));
}

/** Documents of a type: `/api/projects/{projectId}/types/{typeId}/data`. */
export const documentsKind: EntityKind<{ projectId: typeof projectId; typeId: typeof typeIdSchema }> = {
  tag: 'documents',
  basePath: '/api/projects/:projectId/types/:typeId/data',
  params: z.object({ projectId, typeId: typeIdSchema }),
  async resolve(deps, params) {
    const type = await deps.types.require(params.projectId, params.typeId);
    return {
      scope: TypeDirectory.documentsScope(params.projectId, params.typeId),
      validate: (fields) => validateDocument(type.schema, fields),
      defaultAccess: type.defaultAccess,
      ...(type.syncType === 'localOnly' ? { refuseWrites: dataError('DATA_LOCAL_ONLY_TYPE') } : {}),
    };
  },
};

/** Types of a project: `/api/projects/{projectId}/types`. */
export const typesKind: EntityKind<{ projectId: typeof projectId }> = {
  tag: 'types',
  basePath: '/api/projects/:projectId/types',
  params: z.object({ projectId }),
  async resolve(_deps, params) {
    return {
      scope: TypeDirectory.typesScope(params.projectId),
      validate: (fields) => zodProblems(typeRecordSchema.safeParse(fields)),
      idSchema: typeIdSchema,
    };
  },
};

/** Set only by the publishing service's publish step (through the writer), never by clients. */
const APPLICATION_PUBLISH_FIELDS: ReadonlySet<string> = new Set(['publishedVersionNumber', 'publishedVersionId', 'publishedAt']);

/** Applications of a project: `/api/projects/{projectId}/applications`. */
export const applicationsKind: EntityKind<{ projectId: typeof projectId }> = {
  tag: 'applications',
  basePath: '/api/projects/:projectId/applications',
  params: z.object({ projectId }),
  async resolve(_deps, params) {
    return {
      scope: TypeDirectory.applicationsScope(params.projectId),
      validate: (fields) => zodProblems(applicationRecordSchema.safeParse(fields)),
      serverOwnedFields: APPLICATION_PUBLISH_FIELDS,
    };
  },
};

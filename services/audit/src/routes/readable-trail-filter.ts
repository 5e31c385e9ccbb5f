import { requireUser, rlsAllows, type ProjectAccess } from '@platform/kit';
import type { FastifyRequest } from 'fastify';
import { trailFilter, type TrailQuery } from '../domain/trail-query';
import type { TrailReader } from '../trail/author-names';
import { MEMBERS, PROJECT_SETTINGS } from '../trail/trail-item';
import { refuseInvertedRange } from './trail-query-schema';

/**
 * The store filter for the part of a project's trail the signed-in caller may read, with the
 * query's filters: a member's (others get the project's 404), without the types it may not read,
 * the project's settings and membership changes unless it may read the project, and the entities
 * whose read rule leaves it out. The page and the export both start here, so they can never show
 * different items.
 */
export async function readableTrailFilter(
  request: FastifyRequest,
  projectId: string,
  query: Omit<TrailQuery, 'page' | 'limit'>,
  projects: ProjectAccess,
): Promise<{ reader: TrailReader; filter: ReturnType<typeof trailFilter> }> {
  const reader = requireUser(request);
  refuseInvertedRange(query);
  const { project, caller } = await projects.require(projectId, request.principal);
  const unreadableTypes = await projects.types.unreadableTypes(projectId, caller);
  // The project's own settings and memberships are shown to those who may read the project (and so list its members).
  if (!rlsAllows(project.access, 'read', caller)) unreadableTypes.push(PROJECT_SETTINGS.typeId, MEMBERS.typeId);
  return { reader, filter: trailFilter(projectId, query, caller, unreadableTypes) };
}

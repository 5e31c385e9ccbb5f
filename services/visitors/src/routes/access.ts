import type { StoredEntity } from '@platform/documents';
import { AppError, findLiveProject, projectNotFound, rlsAllows, type ProjectCaller } from '@platform/kit';
import type { FastifyRequest } from 'fastify';
import { visitorsError } from '../errors';
import type { VisitorsDeps } from './context';

export const SECRET_HEADER = 'x-visitor-secret';

/** Who is calling a visitor route: a project member (RLS applies) or a public caller such as a kiosk. */
export type VisitorCaller = { kind: 'member'; caller: ProjectCaller } | { kind: 'public' };

/**
 * Opens a visitor route: a signed-in member is recognised as such and is not rate-limited; anyone
 * else meets the per-address limit first (it counts every request, refused ones too), then the
 * project, which must exist for anyone. Unknown projects get the same 404 as everywhere else.
 */
export async function openProject(deps: VisitorsDeps, request: FastifyRequest, projectId: string): Promise<VisitorCaller> {
  if (request.principal.kind === 'user') {
    try {
      const { caller } = await deps.data.projects.require(projectId, request.principal);
      return { kind: 'member', caller };
    } catch (error) {
      if (!(error instanceof AppError && error.statusCode === 404)) throw error;
    }
  }
  await deps.rateLimiter.checkAddress(request.ip);
  if (!(await findLiveProject(deps.data.store, projectId))) throw projectNotFound();
  return { kind: 'public' };
}

/** A public caller spends the budget of the kiosk binding (the type) the request names; members do not. */
export async function limitKiosk(deps: VisitorsDeps, request: FastifyRequest, who: VisitorCaller, collection: string): Promise<void> {
  if (who.kind === 'public') await deps.rateLimiter.checkKiosk(collection, request.ip);
}

/** The JSON bytes a public caller may store in one record; members are held to the data service's limits only. */
export function publicDataLimit(deps: VisitorsDeps, who: VisitorCaller): number | undefined {
  return who.kind === 'public' ? deps.publicMaxDataBytes : undefined;
}

/**
 * Runs a public caller's write within its kiosk binding's daily quota (members' writes are not
 * counted). A write that fails gives its count back: a refused write stores nothing, so it spends nothing.
 */
export async function withinDailyQuota<T>(deps: VisitorsDeps, who: VisitorCaller, collection: string, write: () => Promise<T>): Promise<T> {
  if (who.kind === 'member') return write();
  const spent = await deps.writeQuota.spend(collection);
  try {
    return await write();
  } catch (error) {
    await spent.giveBack();
    throw error;
  }
}

/**
 * May this caller do `operation` to this visitor? A member by the record's RLS; anyone else only
 * with the visitor's secret. A public caller without the right secret, and a member who may not
 * read it, learn nothing: 404, as for a visitor that does not exist.
 */
export async function authorizeVisitor(
  deps: VisitorsDeps,
  request: FastifyRequest,
  who: VisitorCaller,
  visitor: StoredEntity | null,
  collection: string,
  operation: 'read' | 'update' | 'delete',
): Promise<{ visitor: StoredEntity; userId: string }> {
  if (!visitor) throw visitorsError('VISITORS_NOT_FOUND');
  if (who.kind === 'member') {
    if (!rlsAllows(visitor.access, 'read', who.caller)) throw visitorsError('VISITORS_NOT_FOUND');
    if (!rlsAllows(visitor.access, operation, who.caller)) throw visitorsError('VISITORS_FORBIDDEN', { message: `You may not ${operation} this visitor` });
    return { visitor, userId: who.caller.userId };
  }
  const secret = request.headers[SECRET_HEADER];
  if (!(await deps.secrets.verify(collection, visitor.id, typeof secret === 'string' ? secret : undefined))) throw visitorsError('VISITORS_NOT_FOUND');
  return { visitor, userId: `visitor:${visitor.id}` };
}

import { requireUser } from '@platform/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';
import { projectSchema } from '../projects/project-schemas';
import { adminPageQuery, tenantSchema } from '../tenants/tenant-schemas';
import { currentUserSchema, toCurrentUser } from '../users/user-record';

const tags = ['admin'];

function pageOf<T extends z.ZodTypeAny>(item: T) {
  return z.object({ items: z.array(item), total: z.number(), page: z.number(), limit: z.number() });
}

/** Signed in (else 401) and a platform owner (from the development promotion or `promote-owner`), else 403; a callback hook, as userGuard. */
export function platformOwnerGuard(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (!requireUser(request).platformOwner) throw identityError('IDENTITY_PLATFORM_OWNER_ONLY');
  done();
}

/** Platform administration: every tenant, project and user, a page at a time, oldest first. */
export function registerAdminRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const skipOf = ({ page, limit }: { page: number; limit: number }) => ({ skip: (page - 1) * limit, limit });

  routes.get(
    '/api/admin/tenants',
    { preHandler: platformOwnerGuard, schema: { tags, summary: 'Every tenant (platform owners)', querystring: adminPageQuery, response: { 200: pageOf(tenantSchema) } } },
    async (request) => ({ ...(await deps.tenants.listAll(skipOf(request.query))), ...request.query }),
  );

  routes.get(
    '/api/admin/projects',
    { preHandler: platformOwnerGuard, schema: { tags, summary: 'Every project (platform owners)', querystring: adminPageQuery, response: { 200: pageOf(projectSchema) } } },
    async (request) => ({ ...(await deps.projects.listAll(skipOf(request.query))), ...request.query }),
  );

  routes.get(
    '/api/admin/users',
    { preHandler: platformOwnerGuard, schema: { tags, summary: 'Every user (platform owners)', querystring: adminPageQuery, response: { 200: pageOf(currentUserSchema) } } },
    async (request) => {
      const { items, total } = await deps.users.listAll(skipOf(request.query));
      return { items: items.map(toCurrentUser), total, ...request.query };
    },
  );
}

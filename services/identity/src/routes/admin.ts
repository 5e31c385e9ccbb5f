import { requestTraceContext, requireUser } from '@platform/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';
import { projectSchema } from '../projects/project-schemas';
import { adminPageQuery, tenantSchema } from '../tenants/tenant-schemas';
import { noticeAccountChange } from '../users/security-notices';
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

/** Platform administration: every tenant, project and user, a page at a time, oldest first; platform ownership and locked-out users' two-step sign-in. */
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

  const userIdParams = z.object({ userId: z.string().min(1).max(100) });

  /** The user after its guarded demotion: of owners demoting each other (or deleting their accounts) at once, one stays owner. */
  async function demotedOwner(userId: string) {
    const demoted = await deps.users.demotePlatformOwner(userId);
    if (demoted === 'gone') throw identityError('IDENTITY_USER_NOT_FOUND');
    if (demoted === 'last-owner') throw identityError('IDENTITY_LAST_PLATFORM_OWNER');
    if (demoted === 'busy') throw identityError('IDENTITY_PLATFORM_OWNER_CHANGING');
    return demoted.user;
  }

  routes.patch(
    '/api/admin/users/:userId',
    {
      preHandler: platformOwnerGuard,
      schema: {
        tags,
        summary: 'Make a user platform owner or not, or mark their email confirmed or not (platform owners)',
        description:
          "Takes effect on the user's live sessions at once. `emailVerified: true` is for someone whose mail does not arrive and who proved the address another way (where IDENTITY_REQUIRE_CONFIRMED_EMAIL limits unconfirmed accounts, the limit goes); `false` asks for the link again. A body naming neither is 400 `IDENTITY_NOTHING_TO_CHANGE`; 409 `IDENTITY_LAST_PLATFORM_OWNER` for the platform's last owner, also against concurrent demotions and account deletions of the other owners (one owner always stays; both requests may be refused); 409 `IDENTITY_PLATFORM_OWNER_CHANGING` while another demotion of the user does not finish. A refused demotion changes nothing.",
        params: userIdParams,
        body: z.object({ platformOwner: z.boolean().optional(), emailVerified: z.boolean().optional() }).strict(),
        response: { 200: currentUserSchema },
      },
    },
    async (request) => {
      const { userId } = request.params;
      const { platformOwner, emailVerified } = request.body;
      // Checked here rather than in the schema, so that only a platform owner learns what the body lacks.
      if (platformOwner === undefined && emailVerified === undefined) throw identityError('IDENTITY_NOTHING_TO_CHANGE');
      const user = platformOwner === false ? await demotedOwner(userId) : await deps.users.require(userId);
      const set = { ...(platformOwner === true ? { platformOwner } : {}), ...(emailVerified === true && user.emailVerifiedAt === undefined ? { emailVerifiedAt: deps.clock() } : {}) };
      const modifier = { ...(Object.keys(set).length > 0 ? { $set: set } : {}), ...(emailVerified === false ? { $unset: { emailVerifiedAt: '' } } : {}) };
      const updated = Object.keys(modifier).length > 0 ? await deps.users.update(userId, modifier) : user;
      if (!updated) throw identityError('IDENTITY_USER_NOT_FOUND');
      await deps.sessions.refresh(updated);
      request.log.info({ userId, platformOwner, emailVerified, by: requireUser(request).userId }, 'user changed by a platform owner');
      return toCurrentUser(updated, deps.requireConfirmedEmail);
    },
  );

  routes.delete(
    '/api/admin/users/:userId/two-factor',
    {
      preHandler: platformOwnerGuard,
      schema: {
        tags,
        summary: "Turn off a user's two-step sign-in (platform owners), for someone who lost their app and recovery codes",
        description: 'Make sure who asks first. The user is told by mail. 409 `IDENTITY_TWO_FACTOR_OFF` when it is off.',
        params: userIdParams,
        response: { 204: z.undefined().describe('Off') },
      },
    },
    async (request, reply) => {
      const user = await deps.users.require(request.params.userId);
      if (!(await deps.users.disableTwoFactor(user.id))) throw identityError('IDENTITY_TWO_FACTOR_OFF');
      request.log.info({ userId: user.id, by: requireUser(request).userId }, 'two-step sign-in turned off by a platform owner');
      noticeAccountChange(deps, user, 'two-factor-off', requestTraceContext(request));
      return reply.code(204).send();
    },
  );

  routes.get(
    '/api/admin/users',
    { preHandler: platformOwnerGuard, schema: { tags, summary: 'Every user (platform owners)', querystring: adminPageQuery, response: { 200: pageOf(currentUserSchema) } } },
    async (request) => {
      const { items, total } = await deps.users.listAll(skipOf(request.query));
      return { items: items.map((user) => toCurrentUser(user, deps.requireConfirmedEmail)), total, ...request.query };
    },
  );
}

import { requestTraceContext, requireUser, userGuard } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { userWithCheckedPassword } from '../auth/password-check';
import { givenPasswordSchema } from '../auth/passwords';
import { clearSessionCookie } from '../auth/session-cookie';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';
import { deleteAccount, planDeletion, shownPlan } from '../users/account-deletion';
import type { DeletionBlocker } from '../users/deletion-blockers';
import { noticeAccountChange } from '../users/security-notices';

const tags = ['identity'];

const named = z.object({ id: z.string(), name: z.string() });
const blockerSchema = z.discriminatedUnion('reason', [
  z.object({ reason: z.literal('last-platform-owner'), message: z.string() }),
  z.object({ reason: z.literal('last-tenant-admin'), tenantId: z.string(), tenantName: z.string(), message: z.string() }),
]);
const planSchema = z.object({
  blockers: z.array(blockerSchema).describe('What must be done first; the account can be deleted when this is empty'),
  deletedProjects: z.array(named).describe('Projects deleted with the account'),
  leftTenants: z.array(named).describe("Shared tenants the account leaves; projects it owns there pass to one of the tenant's admins"),
});

function stillNeeded(blockers: DeletionBlocker[]) {
  return identityError('IDENTITY_ACCOUNT_STILL_NEEDED', { message: blockers.map((blocker) => blocker.message).join(' '), details: { blockers } });
}

/**
 * Deleting one's own account: `GET /api/me/deletion` says what it would do and what stands in the
 * way; `DELETE /api/me` with the password does it (see users/account-deletion.ts).
 */
export function registerAccountDeletionRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/me/deletion',
    { preHandler: userGuard, schema: { tags, summary: 'What deleting your account would do, and what keeps it from being deleted now', response: { 200: planSchema } } },
    async (request) => shownPlan(await planDeletion(deps, await deps.users.require(requireUser(request).userId))),
  );

  routes.delete(
    '/api/me',
    {
      preHandler: userGuard,
      schema: {
        tags,
        summary: 'Delete your account (the password is checked)',
        description:
          "Leaves every tenant and project, deletes the projects that go with the account (`GET /api/me/deletion` lists them: they are restorable by a platform owner for the restore period, then purged), drops the invitations it received, ends every session and access token, and erases the account's record: its email can register again. 409 `IDENTITY_ACCOUNT_STILL_NEEDED` with `details.blockers` while it is the only platform owner or the only admin of a tenant with other members; nothing changes then. This holds against concurrent deletions and demotions of the other owners and admins too: the account gives up its roles first through the guarded demotion, so of two owners (or a tenant's two admins) deleting their accounts at once one is refused (both may be), and the platform keeps an owner, the tenant an admin. 409 `IDENTITY_PLATFORM_OWNER_CHANGING` or `IDENTITY_TENANT_ROLE_CHANGING` while another demotion of the account does not finish; nothing changes then either. A wrong password is 403 `IDENTITY_WRONG_PASSWORD` and counts as a failed sign-in.",
        body: z.object({ password: givenPasswordSchema }).strict(),
        response: { 200: planSchema },
      },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const user = await userWithCheckedPassword(deps, request, userId, request.body.password);
      const planned = await planDeletion(deps, user);
      if (planned.blockers.length > 0) throw stillNeeded(planned.blockers);
      const outcome = await deleteAccount(deps, user, planned);
      if (outcome !== 'deleted') throw 'busy' in outcome ? identityError(outcome.busy) : stillNeeded(outcome.blockers);
      request.log.info({ userId, deletedProjects: planned.deletedProjects.length, leftTenants: planned.leftTenants.length }, 'account deleted');
      noticeAccountChange(deps, user, 'account-deleted', requestTraceContext(request));
      clearSessionCookie(reply, deps.dev);
      return shownPlan(planned);
    },
  );
}

import { requireUser, userGuard } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { IdentityDeps } from '../identity-deps';
import { initialsAvatarSvg } from '../users/initials-avatar';
import { canSee, visibleProfile, type Viewer } from '../users/profile-visibility';
import { DEFAULT_PRIVACY, profileFieldSchema, type StoredUser } from '../users/user-record';

const userParams = z.object({ userId: z.string().min(1).max(100) });

const publicProfileSchema = z.object({
  id: z.string(),
  displayName: z.string().optional().describe('Absent when the displayName profile field is hidden from the caller'),
  profileFields: z.record(z.string(), profileFieldSchema),
});

/** Other users as the caller may see them: profile privacy decides field by field. */
export function registerUserRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  /** Colleagues: members of one project, or of one tenant (whose admins manage all its projects). */
  async function sharesWork(callerId: string, userId: string): Promise<boolean> {
    return (await deps.projects.shareAProject(callerId, userId)) || (await deps.tenants.shareATenant(callerId, userId));
  }

  async function viewed(callerId: string, platformOwner: boolean, userId: string): Promise<{ user: StoredUser; viewer: Viewer; displayName?: string }> {
    const user = await deps.users.require(userId);
    const viewer: Viewer = callerId === userId || platformOwner ? 'self' : (await sharesWork(callerId, userId)) ? 'shares-project' : 'other';
    const nameVisible = canSee(user.profileFields.displayName ?? { privacy: DEFAULT_PRIVACY }, viewer);
    return { user, viewer, ...(nameVisible ? { displayName: user.displayName } : {}) };
  }

  routes.get(
    '/api/users/:userId',
    { preHandler: userGuard, schema: { tags: ['identity'], summary: "A user's profile, as far as its privacy lets the caller see it", params: userParams, response: { 200: publicProfileSchema } } },
    async (request) => {
      const caller = requireUser(request);
      const { user, viewer, displayName } = await viewed(caller.userId, caller.platformOwner, request.params.userId);
      return { id: user.id, ...(displayName ? { displayName } : {}), profileFields: visibleProfile(user.profileFields, user.email, viewer) };
    },
  );

  routes.get(
    '/api/users/:userId/avatar/url',
    {
      preHandler: userGuard,
      schema: {
        tags: ['identity'],
        summary: "The URL of a user's avatar",
        description: "The user's own avatar URL when set, else the deterministic initials image served at /api/users/{userId}/avatar.svg.",
        params: userParams,
        response: { 200: z.object({ url: z.string() }) },
      },
    },
    async (request) => {
      const user = await deps.users.require(request.params.userId);
      return { url: user.avatarUrl ?? `/api/users/${encodeURIComponent(user.id)}/avatar.svg` };
    },
  );

  routes.get(
    '/api/users/:userId/avatar.svg',
    { preHandler: userGuard, schema: { tags: ['identity'], summary: 'Initials avatar (SVG) from the name fields the caller may see', params: userParams } },
    async (request, reply) => {
      const caller = requireUser(request);
      const { user, displayName } = await viewed(caller.userId, caller.platformOwner, request.params.userId);
      return reply.type('image/svg+xml').header('cache-control', 'private, max-age=300').send(initialsAvatarSvg(user.id, displayName));
    },
  );
}

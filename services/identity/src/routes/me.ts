import { requireUser, userGuard } from '@platform/kit';
import type { UpdateModifier } from '@platform/storage';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';
import { profileChanges } from '../users/profile-update';
import { touchRecentProject } from '../users/recent-projects';
import { currentUserSchema, profileFieldSchema, toCurrentUser } from '../users/user-record';

const profileResponse = z.object({ id: z.string(), displayName: z.string(), profileFields: z.record(z.string(), profileFieldSchema) });

/** The signed-in user's own record: read it, its profile, recent projects and avatar. */
export function registerMeRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/me',
    {
      preHandler: userGuard,
      schema: { tags: ['identity'], summary: 'The current user', description: 'To an access token made for some projects, `recentProjects` holds only those: every other project is unknown to it.', response: { 200: currentUserSchema } },
    },
    async (request) => {
      const { userId, projectIds } = requireUser(request);
      const current = toCurrentUser(await deps.users.require(userId), deps.requireConfirmedEmail);
      if (!projectIds) return current;
      return { ...current, recentProjects: Object.fromEntries(Object.entries(current.recentProjects).filter(([projectId]) => projectIds.includes(projectId))) };
    },
  );

  routes.put(
    '/api/me/profile',
    {
      preHandler: userGuard,
      schema: {
        tags: ['identity'],
        summary: 'Update profile fields',
        description:
          'Accepts firstName, lastName, displayName (plain value, stored with privacy `projects`, or `{ value, privacy }`) and email (`{ privacy }` only); other keys are ignored.',
        body: z.record(z.string(), z.unknown()),
        response: { 200: profileResponse },
      },
    },
    async (request) => {
      const { userId } = requireUser(request);
      const user = await deps.users.require(userId);
      const changes = profileChanges(user.profileFields, request.body);
      const set: Record<string, unknown> = Object.fromEntries(Object.entries(changes).map(([key, field]) => [`profileFields.${key}`, field]));
      const newName = changes.displayName?.value;
      if (typeof newName === 'string' && newName.trim()) set.displayName = newName.trim();
      const updated = Object.keys(set).length ? await deps.users.update(userId, { $set: set }) : user;
      if (!updated) throw identityError('IDENTITY_USER_NOT_FOUND');
      if (updated.displayName !== user.displayName) await deps.sessions.refresh(updated).catch((error: unknown) => request.log.warn({ err: error }, 'sessions not refreshed'));
      return { id: updated.id, displayName: updated.displayName, profileFields: updated.profileFields as Record<string, z.infer<typeof profileFieldSchema>> };
    },
  );

  routes.put(
    '/api/me/last-project',
    {
      preHandler: userGuard,
      schema: {
        tags: ['identity'],
        summary: 'Record that the current user opened a project',
        description: 'Replaces recentProjects with a snapshot sorted newest first and capped at 50 (oldest evicted). 404 for a project the user is not a member of.',
        body: z.object({ projectId: z.string().min(1).max(100) }),
        response: { 200: z.object({ recentProjects: z.record(z.string(), z.number()) }) },
      },
    },
    async (request) => {
      const principal = requireUser(request);
      const { project } = await deps.access.require(request.body.projectId, principal);
      const at = deps.clock();
      const user = await deps.users.updateFromCurrent(principal.userId, (current) => ({ $set: { recentProjects: touchRecentProject(current.recentProjects, project.id, at) } }));
      return { recentProjects: user.recentProjects };
    },
  );

  routes.put(
    '/api/me/avatar',
    {
      preHandler: userGuard,
      schema: {
        tags: ['identity'],
        summary: "Set or clear the current user's avatar image URL",
        body: z.object({ url: z.url({ protocol: /^https?$/ }).max(2048).nullable() }),
        response: { 200: currentUserSchema },
      },
    },
    async (request) => {
      const { userId } = requireUser(request);
      const modifier: UpdateModifier = request.body.url === null ? { $unset: { avatarUrl: '' } } : { $set: { avatarUrl: request.body.url } };
      const updated = await deps.users.update(userId, modifier);
      if (!updated) throw identityError('IDENTITY_USER_NOT_FOUND');
      return toCurrentUser(updated, deps.requireConfirmedEmail);
    },
  );
}

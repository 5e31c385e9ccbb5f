import { AppError, type ProjectAccess, type ProjectCaller } from '@platform/kit';

/**
 * An action's owner's standing in its project as a member, or null when they are no longer one.
 * A platform owner's standing does not count: an action acts on what its owner may read as a
 * member, whether a change triggered it or the owner runs it by hand, so it never becomes a way
 * for a platform owner's rights to reach a project's mail or webhooks.
 */
export async function ownerStanding(projects: ProjectAccess, projectId: string, ownerId: string): Promise<ProjectCaller | null> {
  try {
    const { caller } = await projects.require(projectId, { kind: 'user', userId: ownerId, sessionId: 'actions-executor', platformOwner: false });
    return caller;
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) return null;
    throw error;
  }
}

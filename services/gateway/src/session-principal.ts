import type { SessionRecord, UserPrincipal } from '@platform/contracts';

/** The caller a stored session stands for, as the gateway signs it for services. */
export function principalOfSession(session: SessionRecord): UserPrincipal {
  return {
    kind: 'user',
    userId: session.userId,
    sessionId: session.id,
    platformOwner: session.platformOwner,
    ...(session.displayName ? { displayName: session.displayName } : {}),
    ...(session.language ? { language: session.language } : {}),
    ...(session.projectIds ? { projectIds: session.projectIds } : {}),
  };
}

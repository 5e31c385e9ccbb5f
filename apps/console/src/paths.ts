/** A project's screens start here (its types); router paths, without the /console base. */
export function projectPath(projectId: string): string {
  return `/projects/${encodeURIComponent(projectId)}`;
}

/** A tenant's screen: its members, invitations and projects. */
export function tenantPath(tenantId: string): string {
  return `/tenants/${encodeURIComponent(tenantId)}`;
}

/** A type's documents screen. */
export function typePath(projectId: string, typeId: string): string {
  return `${projectPath(projectId)}/types/${encodeURIComponent(typeId)}`;
}

/** A document's screen: its state, history and conflicts. */
export function documentPath(projectId: string, typeId: string, id: string): string {
  return `${typePath(projectId, typeId)}/documents/${encodeURIComponent(id)}`;
}

/**
 * Screens for someone without a session: the router shows them signed in or not, and a 401 there
 * (the first GET /api/me) does not send to sign in. app.tsx maps each to its screen.
 */
export const SIGNED_OUT_PATHS = ['/sign-up', '/forgot-password', '/reset-password', '/confirm-email', '/verify-email'] as const;
export type SignedOutPath = (typeof SIGNED_OUT_PATHS)[number];

export function isSignedOutPath(path: string): path is SignedOutPath {
  return (SIGNED_OUT_PATHS as readonly string[]).includes(path);
}

/** What keeps an account from being deleted until its user sees to it, with what to do about it. */
export type DeletionBlocker =
  | { reason: 'last-platform-owner'; message: string }
  /** A shared tenant with other members, of which the user is the only admin. */
  | { reason: 'last-tenant-admin'; tenantId: string; tenantName: string; message: string };

export function lastPlatformOwner(): DeletionBlocker {
  return { reason: 'last-platform-owner', message: 'You are the only platform owner: make another account platform owner first (promote-owner).' };
}

export function lastTenantAdmin(tenant: { id: string; name: string }): DeletionBlocker {
  const message = `You are the only admin of the tenant ${tenant.name}, which has other members: make one of them admin first.`;
  return { reason: 'last-tenant-admin', tenantId: tenant.id, tenantName: tenant.name, message };
}

export function sameBlocker(a: DeletionBlocker, b: DeletionBlocker): boolean {
  if (a.reason === 'last-tenant-admin' && b.reason === 'last-tenant-admin') return a.tenantId === b.tenantId;
  return a.reason === b.reason;
}

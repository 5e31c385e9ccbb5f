import { z } from 'zod';

/**
 * Tenants (organizations) own projects. Identity stores them in `tenants`, their members in
 * `tenant-members` with id `{tenantId}:{userId}`; every service reads a caller's tenant role
 * through kit's ProjectAccess, never from the client.
 */
export const TENANTS_COLLECTION = 'tenants';
export const TENANT_MEMBERS_COLLECTION = 'tenant-members';

export const tenantRoleSchema = z.enum(['admin', 'member']);
export type TenantRole = z.infer<typeof tenantRoleSchema>;

export const tenantMemberSchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  userId: z.string(),
  role: tenantRoleSchema,
  createdAt: z.number(),
});
export type TenantMember = z.infer<typeof tenantMemberSchema>;

export function tenantMemberId(tenantId: string, userId: string): string {
  return `${tenantId}:${userId}`;
}

/** Every user's own tenant, created at registration (or on first need for older accounts). */
export function personalTenantId(userId: string): string {
  return `personal-${userId}`;
}

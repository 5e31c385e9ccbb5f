import { tenantMemberSchema, tenantRoleSchema } from '@platform/contracts';
import { numberText } from '@platform/kit';
import { z } from 'zod';

export const tenantIdParams = z.object({ tenantId: z.string().min(1).max(100) });
export const tenantMemberParams = tenantIdParams.extend({ userId: z.string().min(1).max(100) });

export const tenantSchema = z.object({
  id: z.string(),
  name: z.string(),
  personal: z.boolean().describe("A user's own tenant, created with the account; it has no other members"),
  createdBy: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

export const tenantWithRoleSchema = tenantSchema.extend({ role: tenantRoleSchema.describe("The caller's role in the tenant") });

export const tenantNameBody = z.object({ name: z.string().trim().min(1).max(200) });

export const putTenantMemberBody = z.object({ role: tenantRoleSchema });

export const tenantMemberResponse = tenantMemberSchema.omit({ id: true });

/** Page parameters of the platform administration lists. */
export const adminPageQuery = z.object({
  page: numberText(z.coerce.number().int().min(1).default(1)),
  limit: numberText(z.coerce.number().int().min(1).max(200).default(50)),
});

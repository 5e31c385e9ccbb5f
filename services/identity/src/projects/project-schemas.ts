import { accessSchema, projectRoleSchema } from '@platform/contracts';
import { z } from 'zod';

export const projectIdParams = z.object({ projectId: z.string().min(1).max(100) });

export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  ownerId: z.string(),
  tenantId: z.string().optional().describe('The owning tenant; absent only on projects older than tenants'),
  access: accessSchema.optional(),
  aiEnabled: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number(),
  revision: z.number(),
});

export const createProjectBody = z.object({
  name: z.string().trim().min(1).max(200),
  tenantId: z.string().min(1).max(100).optional().describe("A tenant the caller belongs to; the caller's personal tenant when absent"),
  access: accessSchema.optional().describe('RLS of the project itself; plain permission names are scoped to the new project'),
});

/** A permission name as members hold it: plain (`editors`) or already scoped (`{projectId}::editors`). */
export const permissionName = z.string().regex(/^([A-Za-z0-9_-]{1,100}::)?[A-Za-z0-9_.-]{1,100}$/, 'letters, digits, _ . - (optionally scoped {projectId}::name)');

export const addMemberBody = z.object({
  userId: z.string().min(1).max(100),
  permissions: z.array(permissionName).max(200).default([]),
});

export const memberSchema = z.object({
  projectId: z.string(),
  userId: z.string(),
  role: projectRoleSchema,
  permissions: z.array(z.string()),
  createdAt: z.number(),
});

export const aiSettingsBody = z.object({ aiEnabled: z.boolean() });

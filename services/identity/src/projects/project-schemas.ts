import { accessSchema, projectRoleSchema, storedAccessSchema } from '@platform/contracts';
import { z } from 'zod';
import { emailAddress } from '../users/email-address';

export const projectIdParams = z.object({ projectId: z.string().min(1).max(100) });

export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  ownerId: z.string(),
  tenantId: z.string().optional().describe('The owning tenant; absent only on projects older than tenants'),
  access: storedAccessSchema.optional(),
  aiEnabled: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number(),
  revision: z.number(),
  deletedAt: z.number().optional().describe('When the project was deleted; only deleted projects listed to platform owners and restorers carry it'),
  purgedAt: z.number().optional().describe("When a deleted project's data was erased (platform owners' list only)"),
});

/** A deleted project as its restorers see it. */
export const deletedProjectSchema = projectSchema.extend({
  deletedAt: z.number(),
  restorableUntil: z.number().describe('Until when (Unix ms) the project can be restored; its data is purged after that'),
});

const projectName = z.string().trim().min(1).max(200);

export const createProjectBody = z.object({
  name: projectName,
  tenantId: z.string().min(1).max(100).optional().describe("A tenant the caller belongs to; the caller's personal tenant when absent"),
  access: accessSchema.optional().describe('RLS of the project itself; plain permission names are scoped to the new project'),
})
  // A misspelt optional key (`tenantID`) would otherwise put the project in the personal tenant without a word.
  .strict();

export const renameProjectBody = z.object({ name: projectName }).strict();

/** A permission name as members hold it: plain (`editors`) or already scoped (`{projectId}::editors`). */
export const permissionName = z.string().regex(/^([A-Za-z0-9_-]{1,100}::)?[A-Za-z0-9_.-]{1,100}$/, 'letters, digits, _ . - (optionally scoped {projectId}::name)');

/** Who to add: a user id, or an email address that gets an invitation link; exactly one of the two. */
export const addMemberBody = z
  .object({
    userId: z.string().min(1).max(100).optional().describe('A user id: a member gets its permissions replaced, anyone else an invitation'),
    email: emailAddress.optional().describe('An email address: it is mailed an invitation link that any signed-in account may accept'),
    permissions: z.array(permissionName).max(200).default([]),
  })
  // A misspelt `permission` would otherwise replace a member's permissions with none.
  .strict()
  .superRefine((body, context) => {
    if (body.userId !== undefined && body.email !== undefined) context.addIssue({ code: 'custom', path: ['email'], message: 'give either userId or email, not both' });
    if (body.userId === undefined && body.email === undefined) context.addIssue({ code: 'custom', path: ['userId'], message: 'give userId or email' });
  })
  // The refinement above, declared in the API description: exactly one of the two is present.
  .meta({ oneOf: [{ required: ['userId'] }, { required: ['email'] }] });

export const memberSchema = z.object({
  projectId: z.string(),
  userId: z.string(),
  role: projectRoleSchema,
  permissions: z.array(z.string()),
  createdAt: z.number(),
});

export const aiSettingsBody = z.object({ aiEnabled: z.boolean() });

import { z } from 'zod';
import { hostnameSchema } from '../domain/hostname';

/** Project, application and domain ids: the platform's id alphabet. */
export const idSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'ids hold 1 to 64 letters, digits, _ or -');
/** Version ids are `{appId}:{versionNumber}`. */
export const versionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}:[1-9][0-9]{0,15}$/, 'version ids look like {appId}:{versionNumber}');

export const applicationParams = z.object({ projectId: idSchema, appId: idSchema });

export const versionSchema = z.object({
  id: z.string(),
  applicationId: z.string(),
  versionNumber: z.number().int(),
  publishedBy: z.string(),
  title: z.record(z.string(), z.unknown()),
  routes: z.array(z.unknown()),
  serverConfiguration: z.record(z.string(), z.unknown()),
  createdAt: z.number(),
});

export const versionListItemSchema = versionSchema.omit({ routes: true, serverConfiguration: true });

export const domainSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  hostname: z.string(),
  targetType: z.literal('application').optional(),
  targetId: z.string().optional(),
  targetVersionId: z.string().optional(),
  status: z.enum(['pending', 'verified', 'expired']).describe('Only verified domains resolve; pending ones hold the hostname until expiresAt, expired ones no longer do'),
  verifiedAt: z.number().optional(),
  verification: z
    .object({
      method: z.literal('dns-txt'),
      record: z.object({ type: z.literal('TXT'), name: z.string(), value: z.string() }),
      expiresAt: z.number(),
    })
    .optional()
    .describe('While not verified: the DNS record that proves control of the hostname, and when the claim stops holding it'),
  revision: z.number().int(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

/** `targetVersionId`: a version id pins; null or another falsy value unpins; absent leaves the pin. */
export const targetVersionIdSchema = z
  .union([versionIdSchema, z.literal(''), z.null(), z.literal(false), z.literal(0)])
  .optional()
  .describe('A version id pins it; null (or "", false, 0) unpins and serves the latest; absent leaves the pin unchanged');

export const publicResolutionSchema = z.object({
  hostname: z.string(),
  projectId: z.string(),
  applicationId: z.string(),
  pinned: z.boolean(),
  version: z.object({
    id: z.string(),
    applicationId: z.string(),
    versionNumber: z.number().int(),
    title: z.record(z.string(), z.unknown()),
    routes: z.array(z.unknown()),
    createdAt: z.number(),
  }),
});

export { hostnameSchema };

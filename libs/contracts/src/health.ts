import { z } from 'zod';

export const dependencyStateSchema = z.object({
  up: z.boolean(),
  kind: z.string().optional().describe('Which adapter or where, e.g. embedded, mongodb, in-process'),
  checkedAt: z.number().optional(),
});

export const accessRevocationSchema = z
  .object({
    by: z.enum(['notices', 'expiry']).describe('notices: changes are announced over the bus and hold within milliseconds; expiry: the bus is down, cached standing ends after expiryMs'),
    expiryMs: z.number().describe('PROJECT_ACCESS_CACHE_MS: the bound while notices cannot arrive'),
  })
  .describe('How a membership or permission change reaches the caches of this process');

export const healthBodySchema = z.object({
  status: z.enum(['ok', 'degraded']),
  shape: z.enum(['all-in-one', 'microservices']).optional(),
  services: z.record(z.string(), dependencyStateSchema),
  dependencies: z.record(z.string(), dependencyStateSchema),
  accessRevocation: accessRevocationSchema.optional(),
});

export type DependencyState = z.infer<typeof dependencyStateSchema>;
export type HealthBody = z.infer<typeof healthBodySchema>;
export type AccessRevocationState = z.infer<typeof accessRevocationSchema>;

import { z } from 'zod';

export const dependencyStateSchema = z.object({
  up: z.boolean(),
  kind: z.string().optional().describe('Which adapter or where, e.g. embedded, mongodb, in-process'),
  checkedAt: z.number().optional(),
});

export const healthBodySchema = z.object({
  status: z.enum(['ok', 'degraded']),
  shape: z.enum(['all-in-one', 'microservices']).optional(),
  services: z.record(z.string(), dependencyStateSchema),
  dependencies: z.record(z.string(), dependencyStateSchema),
});

export type DependencyState = z.infer<typeof dependencyStateSchema>;
export type HealthBody = z.infer<typeof healthBodySchema>;

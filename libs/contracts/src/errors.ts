import { z } from 'zod';

/** The JSON error body every service answers with (except where the spec fixes another body). */
export const errorBodySchema = z.object({
  error: z.string().describe('Human-readable message'),
  code: z.string().describe('Stable machine-readable code, e.g. DATA_REVISION_CONFLICT'),
  details: z.unknown().optional(),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;

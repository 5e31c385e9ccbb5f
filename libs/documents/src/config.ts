import { parseEnv } from '@platform/kit';
import { z } from 'zod';
import { DEFAULT_PATTERN_WORK_LIMIT } from './domain/pattern-work';

/** Bounds on what one write or one sample-data request may make the service hold or answer. */
export interface DataLimits {
  /** Bytes of a stored entity's JSON after a write (its history is stored apart and not counted). */
  maxDocumentBytes: number;
  /** Elements of any array, at any depth, of a stored entity. */
  maxArrayLength: number;
  /** Time one document's schema validation may take before the write is refused. */
  validationBudgetMs: number;
  /** Steps of pattern work (pattern program size times value length, summed) one document's validation may take. */
  patternWorkLimit: number;
  /** Bytes of one sample-data answer (all generated documents together). */
  maxSampleDataBytes: number;
  /** Types one GET .../types.d.ts declares (each is compiled to TypeScript). */
  maxDeclaredTypes: number;
}

const MIB = 1024 * 1024;

/**
 * Changes of recently used entities each process keeps in memory (see History), about 240 bytes
 * each. Least recently used entities go first, so writes cycling over entities with more changes
 * than this in all find none kept, and every answer reads its whole history again: at 50,000 the
 * PATCH benchmark crossed that line within a minute and each PATCH then cost a quarter more.
 */
export const DEFAULT_HISTORY_CACHE_CHANGES = 200_000;

export const dataEnvSchema = z.object({
  DATA_MAX_DOCUMENT_BYTES: z.coerce.number().int().min(1024).max(16 * MIB).default(MIB),
  DATA_MAX_ARRAY_LENGTH: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  DATA_VALIDATION_BUDGET_MS: z.coerce.number().int().min(1).max(10_000).default(50),
  DATA_PATTERN_WORK_LIMIT: z.coerce.number().int().min(10_000).max(1_000_000_000).default(DEFAULT_PATTERN_WORK_LIMIT),
  DATA_SAMPLE_DATA_MAX_BYTES: z.coerce.number().int().min(1024).max(64 * MIB).default(MIB),
  DATA_TYPE_DECLARATIONS_MAX_TYPES: z.coerce.number().int().min(1).max(5_000).default(100),
  DATA_HISTORY_CACHE_CHANGES: z.coerce.number().int().min(1_000).max(100_000_000).default(DEFAULT_HISTORY_CACHE_CHANGES),
});

/** Reads the data service's limits from the environment; a bad value stops start-up naming the variable. */
export function loadDataLimits(env: NodeJS.ProcessEnv = process.env): DataLimits {
  const parsed = parseEnv(dataEnvSchema, env);
  return {
    maxDocumentBytes: parsed.DATA_MAX_DOCUMENT_BYTES,
    maxArrayLength: parsed.DATA_MAX_ARRAY_LENGTH,
    validationBudgetMs: parsed.DATA_VALIDATION_BUDGET_MS,
    patternWorkLimit: parsed.DATA_PATTERN_WORK_LIMIT,
    maxSampleDataBytes: parsed.DATA_SAMPLE_DATA_MAX_BYTES,
    maxDeclaredTypes: parsed.DATA_TYPE_DECLARATIONS_MAX_TYPES,
  };
}

/** How many changes the process keeps in memory for answers with history (DATA_HISTORY_CACHE_CHANGES; a large change counts as several, HistoryPrefixes). */
export function loadHistoryCacheChanges(env: NodeJS.ProcessEnv = process.env): number {
  return parseEnv(dataEnvSchema, env).DATA_HISTORY_CACHE_CHANGES;
}

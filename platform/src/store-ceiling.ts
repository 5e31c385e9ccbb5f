import type { Logger } from '@platform/kit';
import { isEmbeddedStore, type DocumentStore } from '@platform/storage';

const MiB = 1024 * 1024;

/** Health turns degraded once resident memory reaches this share of EMBEDDED_MEMORY_BUDGET_MB. */
export const MEMORY_BUDGET_WARNING_SHARE = 0.9;

/**
 * The embedded store holds every document in memory and replays its whole log at start, so its
 * size and load time are what to watch before moving to the microservice shape (README).
 */
export function logStoreLoaded(store: DocumentStore, logger: Logger, memoryBudgetMb: number | undefined): void {
  if (!isEmbeddedStore(store)) return;
  const { collections, documents, logBytes, loadMs } = store.stats();
  const residentMb = Math.round(process.memoryUsage().rss / MiB);
  logger.info(
    { store: { collections, documents, logBytes, loadMs }, residentMb, ...(memoryBudgetMb !== undefined ? { memoryBudgetMb } : {}) },
    `embedded store loaded: ${documents} documents in ${collections} collections, ${Math.round(logBytes / MiB)} MiB of log, in ${loadMs} ms; the process holds ${residentMb} MiB`,
  );
}

/**
 * A health probe for EMBEDDED_MEMORY_BUDGET_MB: down (so health says `degraded`) once the
 * process's resident memory reaches 90% of the budget, before the machine runs out.
 */
export function memoryBudgetProbe(budgetMb: number, residentBytes: () => number = () => process.memoryUsage().rss): { name: string; kind: string; probe: () => Promise<boolean> } {
  return {
    name: 'memory',
    kind: `embedded store budget ${budgetMb} MB`,
    probe: async () => residentBytes() < budgetMb * MiB * MEMORY_BUDGET_WARNING_SHARE,
  };
}

import type { ErasedCounts } from '@platform/kit';
import type { VisitorsDeps } from '../routes/context';

/**
 * Erases what the visitors service keeps of a purged project beside its documents (which the data
 * service erases): the retention ledger's entries and the visitors' secrets. The secrets go first,
 * since the ledger names them: an erasure cut short finds them again when redelivered.
 */
export async function eraseProjectVisitors(deps: Pick<VisitorsDeps, 'ledger' | 'secrets'>, projectId: string): Promise<ErasedCounts> {
  const visitorKeys = await deps.ledger.visitorKeysOf(projectId);
  const secrets = await deps.secrets.revokeAll(visitorKeys);
  return { secrets, ledgerEntries: await deps.ledger.eraseProject(projectId) };
}

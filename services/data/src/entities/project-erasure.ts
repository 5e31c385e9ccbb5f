import { agentsCollection, applicationsCollection, documentsCollection, historyCollection, typesCollection, type DataDeps } from '@platform/documents';
import type { ErasedCounts } from '@platform/kit';
import { dropCounted } from '@platform/storage';

/**
 * Erases every document and every change of a purged project: each type's documents, its
 * applications, agents and types, with their histories. The types go last and the outbox
 * registry after them, since they name the other collections: an erasure cut short finds them
 * all again when the message is redelivered. Each collection is dropped with its indexes, so the
 * store shrinks back (MongoDB's files go; the embedded store forgets them); what they held is
 * counted first, for the log.
 */
export async function eraseProjectDocuments(deps: Pick<DataDeps, 'store' | 'drainer'>, projectId: string): Promise<ErasedCounts> {
  const types = typesCollection(projectId);
  const typeIds = (await deps.store.collection(types).find({}, { projection: { id: 1 } })).map((type) => type.id);
  const registered = (await deps.drainer.registeredScopes(projectId)).map((scope) => scope.collection);
  const collections = [...new Set([...typeIds.map((typeId) => documentsCollection(projectId, typeId)), ...registered, applicationsCollection(projectId), agentsCollection(projectId)])].filter((name) => name !== types);
  const erased = { collections: 0, documents: 0, changes: 0 };
  const drop = (name: string) => dropCounted(deps.store, name);
  for (const name of [...collections, types]) {
    const documents = await drop(name);
    const changes = await drop(historyCollection(name));
    if (documents + changes > 0) erased.collections += 1;
    erased.documents += documents;
    erased.changes += changes;
  }
  await deps.drainer.unregisterProject(projectId);
  return erased;
}

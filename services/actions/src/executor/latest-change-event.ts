import { documentEventId, type DocumentEvent } from '@platform/contracts';
import { documentEvent, documentsCollection, RESERVED_TYPE_IDS, type DataDeps, type StoredEntity } from '@platform/documents';
import { rlsAllows, type ProjectCaller } from '@platform/kit';

/**
 * The event a document's latest change published, built again from the store: what a run by hand
 * acts on (the document as it is now, and the change that made it so: its deletion, for a deleted
 * document). Null when the document is unknown, one of the project's own records (types,
 * applications, agents), not readable by `reader` (by its own rule or its type's), or its latest
 * change was erased (visitor retention): all answered alike, as a missing document.
 */
export async function latestChangeEvent(data: Pick<DataDeps, 'store' | 'history' | 'projects'>, projectId: string, typeId: string, documentId: string, reader: ProjectCaller): Promise<{ event: DocumentEvent; eventId: string } | null> {
  if (RESERVED_TYPE_IDS.has(typeId)) return null;
  const collection = documentsCollection(projectId, typeId);
  // Read with its outbox: the latest change may not have reached the history yet.
  const entity = await data.store.collection<StoredEntity>(collection).findById(documentId);
  if (!entity || !rlsAllows(entity.access, 'read', reader)) return null;
  if (!(await data.projects.types.mayRead(projectId, typeId, reader))) return null;
  const [change] = await data.history.changes(collection, entity, entity.revision - 1);
  if (!change) return null;
  // Built as the outbox built the event when the change was published.
  const event = documentEvent({ projectId, typeId, collection }, entity, { ...change, revision: entity.revision });
  return { event, eventId: documentEventId(collection, entity.id, entity.revision) };
}

import { documentsCollection, type StoredEntity } from '@platform/data';
import { rlsAllows, type ProjectCaller } from '@platform/kit';
import type { DocumentStore } from '@platform/storage';
import type { ActionRun } from './run-store';

/**
 * Which runs a reader of an action may see: those on documents it may read now. An action runs as
 * its owner, so its runs name documents the owner reads; a member who may read the action but not
 * such a document must not learn the document's id from the run (the RLS leak matrix in
 * platform/src/rls-matrix asks every read path this).
 */
export class RunVisibility {
  constructor(private readonly store: DocumentStore) {}

  async visibleTo(caller: ProjectCaller, projectId: string, runs: ActionRun[]): Promise<ActionRun[]> {
    if (caller.superuser || runs.length === 0) return runs;
    const idsByType = new Map<string, Set<string>>();
    for (const run of runs) idsByType.set(run.typeId, (idsByType.get(run.typeId) ?? new Set()).add(run.documentId));
    const readable = new Set<string>();
    for (const [typeId, ids] of idsByType) {
      const documents = await this.store
        .collection<StoredEntity>(documentsCollection(projectId, typeId))
        .find({ id: { $in: [...ids] } }, { projection: { id: 1, access: 1 } });
      for (const document of documents) if (rlsAllows(document.access, 'read', caller)) readable.add(`${typeId}/${document.id}`);
    }
    return runs.filter((run) => readable.has(`${run.typeId}/${run.documentId}`));
  }
}

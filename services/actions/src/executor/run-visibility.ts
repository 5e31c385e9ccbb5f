import { documentsCollection, type StoredEntity } from '@platform/documents';
import { rlsAllows, type ProjectAccess, type ProjectCaller } from '@platform/kit';
import type { DocumentStore } from '@platform/storage';
import type { ActionRun, BlockResult, DocumentRef, RunFields } from './run-store';

/** A run as readers get it: without the project and without block provenance. */
export type RunView = Omit<RunFields, 'projectId' | 'blocks' | 'blockDocumentsRecorded'> & { blocks: Array<Omit<BlockResult, 'documents'>> };

/** The one block that reads or writes documents besides the triggering one. */
const DOCUMENT_BLOCK = 'update-database';

/** What a reader sees of a block result that involves a document they may not read. */
export const REDACTED_SUMMARY = { redacted: true } as const;
export const REDACTED_ERROR = { code: 'ACTIONS_REDACTED', message: 'Hidden: this block used a document you may not read' } as const;

const keyOf = (document: DocumentRef) => `${document.typeId}/${document.documentId}`;

/**
 * What of an action's runs a reader may see, by the reader's RLS now, like every read path (the
 * RLS leak matrix in platform/src/rls-matrix asks this): an action runs as its owner, so its runs
 * name documents the owner reads. Runs on a triggering document the reader may not read are left
 * out. A block result that involves another document the reader may not read (update-database's
 * target, or a document whose contents reached the block through connections, such as a mail
 * subject filled from an update-database output) keeps its status and timing, and its `summary`
 * becomes `{ redacted: true }` and its `error` a neutral one. Missing documents count as unreadable,
 * and so do the documents of a type whose own read rule excludes the reader. A run recorded before
 * block provenance existed, holding an update-database block, has every block result redacted:
 * which of them carry that block's document is no longer known.
 */
export class RunVisibility {
  constructor(
    private readonly store: DocumentStore,
    private readonly types: ProjectAccess['types'],
  ) {}

  async visibleTo(caller: ProjectCaller, projectId: string, runs: ActionRun[]): Promise<RunView[]> {
    const readable = caller.superuser ? undefined : await this.readableDocuments(caller, projectId, runs);
    const mayRead = (document: DocumentRef) => readable === undefined || readable.has(keyOf(document));
    return runs
      .filter((run) => mayRead({ typeId: run.typeId, documentId: run.documentId }))
      .map((run) => {
        const provenanceUnknown = readable !== undefined && !run.blockDocumentsRecorded && run.blocks.some((block) => block.blockName === DOCUMENT_BLOCK);
        return { ...readerFields(run), blocks: run.blocks.map((block) => blockView(block, !provenanceUnknown && (block.documents ?? []).every(mayRead))) };
      });
  }

  /** The `typeId/documentId` keys among the runs' documents that the caller may read now. */
  private async readableDocuments(caller: ProjectCaller, projectId: string, runs: ActionRun[]): Promise<Set<string>> {
    const idsByType = new Map<string, Set<string>>();
    const add = (document: DocumentRef) => idsByType.set(document.typeId, (idsByType.get(document.typeId) ?? new Set()).add(document.documentId));
    for (const run of runs) {
      add({ typeId: run.typeId, documentId: run.documentId });
      for (const block of run.blocks) for (const document of block.documents ?? []) add(document);
    }
    const readable = new Set<string>();
    for (const [typeId, ids] of idsByType) {
      if (!(await this.types.mayRead(projectId, typeId, caller))) continue;
      const documents = await this.store
        .collection<StoredEntity>(documentsCollection(projectId, typeId))
        .find({ id: { $in: [...ids] } }, { projection: { id: 1, access: 1 } });
      for (const document of documents) if (rlsAllows(document.access, 'read', caller)) readable.add(keyOf({ typeId, documentId: document.id }));
    }
    return readable;
  }
}

/** A run without what readers never get: its project and the marker of recorded provenance. */
export function readerFields({ projectId: _project, blockDocumentsRecorded: _recorded, ...run }: RunFields): Omit<RunFields, 'projectId' | 'blockDocumentsRecorded'> {
  return run;
}

/** A block result without its provenance; redacted unless `shown`. */
function blockView(block: BlockResult, shown: boolean): Omit<BlockResult, 'documents'> {
  const { documents: _documents, ...visible } = block;
  if (shown) return visible;
  return { ...visible, ...(visible.summary ? { summary: REDACTED_SUMMARY } : {}), ...(visible.error ? { error: REDACTED_ERROR } : {}) };
}

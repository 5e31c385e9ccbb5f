import type { Access } from '@platform/contracts';
import { AGENTS_TYPE_ID, applicationsCollection, documentsCollection, History, typesCollection, type StoredEntity } from '@platform/documents';
import { applyUpdate, type DocumentStore } from '@platform/storage';
import { Names } from '../trail/names';
import { trailEntryFor } from '../trail/trail-entries';
import { TrailStore } from '../trail/trail-store';

const PAGE = 200;
/** Entities replayed at once; the changes of one entity are always recorded in order. */
const PARALLEL_ENTITIES = 8;

interface Scope {
  typeId: string;
  collection: string;
}

/** Every collection of the project that can hold entities: types, applications, AI agents and each type's documents (deleted types too). */
async function scopesOf(store: DocumentStore, projectId: string): Promise<Scope[]> {
  const types = await store.collection(typesCollection(projectId)).find({}, { projection: { id: 1 }, sort: { id: 1 } });
  return [
    { typeId: 'types', collection: typesCollection(projectId) },
    { typeId: 'applications', collection: applicationsCollection(projectId) },
    { typeId: AGENTS_TYPE_ID, collection: documentsCollection(projectId, AGENTS_TYPE_ID) },
    ...types.map((type) => ({ typeId: type.id, collection: documentsCollection(projectId, type.id) })),
  ];
}

export interface RebuildReport {
  entities: number;
  items: number;
}

/**
 * Regenerates a project's audit trail from the documents' own history (`{collection}.history`
 * plus changes still in an entity's outbox): the trail is cleared, then every change of every
 * entity is replayed, in revision order, through the same item builder and trail store the live
 * consumer uses, with the entity's state and access at that revision. The result is exactly the
 * trail the consumer builds; changes the consumer records meanwhile are the same items (same id).
 */
export async function rebuildProjectTrail(store: DocumentStore, projectId: string): Promise<RebuildReport> {
  const history = new History(store);
  const names = new Names(store, history, { memoize: true });
  const trail = new TrailStore(store);
  await trail.ensureIndexes();
  await trail.clearProject(projectId);
  const report: RebuildReport = { entities: 0, items: 0 };

  const replayEntity = async (scope: Scope, entity: StoredEntity) => {
    let state: Record<string, unknown> = {};
    for (const change of await history.changes(scope.collection, entity)) {
      const revision = change.baseRevision + 1;
      state = applyUpdate(state, change.modifier);
      const entry = await trailEntryFor({ projectId, typeId: scope.typeId, collection: scope.collection, entityId: entity.id, revision, change, state }, names);
      await trail.record(entry, { access: state.access as Access | undefined, revision });
      report.items += 1;
    }
    report.entities += 1;
  };

  for (const scope of await scopesOf(store, projectId)) {
    const entities = store.collection<StoredEntity>(scope.collection);
    let lastId = '';
    for (;;) {
      const page = await entities.find({ id: { $gt: lastId } }, { sort: { id: 1 }, limit: PAGE });
      for (let start = 0; start < page.length; start += PARALLEL_ENTITIES) {
        await Promise.all(page.slice(start, start + PARALLEL_ENTITIES).map((entity) => replayEntity(scope, entity)));
      }
      if (page.length < PAGE) break;
      lastId = (page[page.length - 1] as StoredEntity).id;
    }
  }
  return report;
}

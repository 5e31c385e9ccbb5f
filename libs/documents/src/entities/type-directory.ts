import { rlsAllows, type ProjectCaller } from '@platform/kit';
import type { DocumentStore } from '@platform/storage';
import { applicationsCollection, documentsCollection, typesCollection } from '../domain/collections';
import type { TypeRecord } from '../domain/type-record';
import { documentError } from '../errors';
import { READ_PROJECTION, type EntityScope, type StoredEntity } from './entity';
import { PinnedTypeSchemas } from './pinned-type-schemas';

export type StoredType = StoredEntity & TypeRecord;

const WITHOUT_SCHEMA = { ...READ_PROJECTION, schema: 0 } as const;

/** Finds a project's types; a document route needs its type to exist and be readable (404 otherwise). */
export class TypeDirectory {
  /** Each type's schema is shared by the reads of its revision: validation finds its compiled validator by identity. */
  private readonly schemas = new PinnedTypeSchemas();

  constructor(private readonly store: DocumentStore) {}

  async require(projectId: string, typeId: string): Promise<StoredType> {
    const type = await this.find(projectId, typeId);
    if (!type || type.deletedAt !== undefined) throw notFound(typeId);
    return type;
  }

  /**
   * The type, if the caller may read it: its `read` rule guards its schema and its documents, and a
   * type the caller may not read answers the same 404 as one that does not exist.
   */
  async requireReadable(projectId: string, typeId: string, caller: ProjectCaller): Promise<StoredType> {
    const type = await this.require(projectId, typeId);
    if (!rlsAllows(type.access, 'read', caller)) throw notFound(typeId);
    return type;
  }

  /** The stored record, deleted or not. Its schema is frozen: it is shared by every read of this revision. */
  async find(projectId: string, typeId: string): Promise<StoredType | null> {
    const collection = this.store.collection<StoredType>(typesCollection(projectId));
    // Most reads are of a revision already pinned: the schema, most of a type's bytes, is then neither copied nor unescaped again.
    const stamped = await collection.findById(typeId, { projection: WITHOUT_SCHEMA });
    if (!stamped) return null;
    const pinned = this.schemas.of(projectId, stamped);
    if (pinned) return pinned.schema === undefined ? stamped : { ...stamped, schema: pinned.schema as StoredType['schema'] };
    const type = await collection.findById(typeId, { projection: READ_PROJECTION });
    return type && this.schemas.pin(projectId, type);
  }

  static typesScope(projectId: string): EntityScope {
    return { projectId, typeId: 'types', collection: typesCollection(projectId) };
  }

  static applicationsScope(projectId: string): EntityScope {
    return { projectId, typeId: 'applications', collection: applicationsCollection(projectId) };
  }

  static documentsScope(projectId: string, typeId: string): EntityScope {
    return { projectId, typeId, collection: documentsCollection(projectId, typeId) };
  }
}

function notFound(typeId: string) {
  return documentError('DATA_TYPE_NOT_FOUND', { message: `Type ${typeId} not found in this project` });
}

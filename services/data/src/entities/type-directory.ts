import type { DocumentStore } from '@platform/storage';
import { applicationsCollection, documentsCollection, typesCollection } from '../domain/collections';
import type { TypeRecord } from '../domain/type-record';
import { dataError } from '../errors';
import { READ_PROJECTION, type EntityScope, type StoredEntity } from './entity';

export type StoredType = StoredEntity & TypeRecord;

/** Finds a project's types; a document route needs its type to exist (404 otherwise). */
export class TypeDirectory {
  constructor(private readonly store: DocumentStore) {}

  async require(projectId: string, typeId: string): Promise<StoredType> {
    const type = await this.store.collection<StoredType>(typesCollection(projectId)).findById(typeId, { projection: READ_PROJECTION });
    if (!type || type.deletedAt !== undefined) throw dataError('DATA_TYPE_NOT_FOUND', { message: `Type ${typeId} not found in this project` });
    return type;
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

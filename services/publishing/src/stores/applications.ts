import type { Access } from '@platform/contracts';
import { applicationsCollection, type EntityScope, type StoredEntity } from '@platform/documents';
import type { DocumentStore } from '@platform/storage';
import type { PublishableApplication } from '../domain/versions';

export type StoredApplication = StoredEntity &
  PublishableApplication & {
    access?: Access;
    publishedVersionId?: string;
    publishedAt?: number;
  };

/**
 * Reads applications from the data service's collection. Publishing never writes it directly:
 * the publish patch goes through the data service's writer (baseRevision, history, events).
 */
export class ApplicationReader {
  constructor(private readonly store: DocumentStore) {}

  static scope(projectId: string): EntityScope {
    return { projectId, typeId: 'applications', collection: applicationsCollection(projectId) };
  }

  /** The application unless it is missing or soft-deleted. */
  async live(projectId: string, applicationId: string): Promise<StoredApplication | null> {
    const application = await this.stored(projectId, applicationId);
    return application && application.deletedAt === undefined ? application : null;
  }

  /** The application as stored, soft-deleted or not. */
  async stored(projectId: string, applicationId: string): Promise<StoredApplication | null> {
    return this.store.collection<StoredApplication>(applicationsCollection(projectId)).findById(applicationId, { projection: { _outbox: 0 } });
  }
}

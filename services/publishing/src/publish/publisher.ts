import { randomUUID } from 'node:crypto';
import { AppError, rlsAllows, type ProjectCaller, type TraceContext } from '@platform/kit';
import type { DataDeps } from '@platform/documents';
import type { StoreSection } from '@platform/storage';
import { snapshot, type StoredVersion } from '../domain/versions';
import { publishingError } from '../errors';
import { ApplicationReader, type StoredApplication } from '../stores/applications';
import type { VersionStore } from '../stores/versions';

/**
 * The Application publish transition. The version row is inserted first under the id
 * `{appId}:{number}`, so of concurrent publishes of one number the store admits exactly one; the
 * others answer 409 having written nothing. The winner then patches the application through the
 * data service's writer under the baseRevision it read, so the snapshot is exactly that revision,
 * and settles its row. If that patch loses (the application changed meanwhile), the publish
 * removes its own row before answering 409: in the end a version exists only if the application
 * took its number.
 *
 * Whenever the application names version N, row N exists, and once settled it is the snapshot of
 * the publish whose patch landed. That needs care on MongoDB, where the claim goes before the patch
 * and not with it: a publish that stalls between them longer than ABANDONED_AFTER_MS may see a
 * later publish of the same number replace its row, and still land its patch, the later one then
 * losing. So the winner writes its snapshot back when it settles (VersionStore.settle), and a loser
 * leaves its row alone once the application took the number, so a row stands even if the winner
 * stops before settling.
 */
export class Publisher {
  constructor(
    private readonly applications: ApplicationReader,
    private readonly versions: VersionStore,
    private readonly writer: Pick<DataDeps['writer'], 'patch'>,
    private readonly clock: () => number,
    private readonly onPublished: (projectId: string, applicationId: string) => void,
  ) {}

  /** The application the caller may read, or 404 when it is missing, deleted or unreadable. */
  async readable(projectId: string, applicationId: string, caller: ProjectCaller): Promise<StoredApplication> {
    const application = await this.applications.live(projectId, applicationId);
    if (!application) throw publishingError('PUBLISHING_APPLICATION_NOT_FOUND');
    // Like the data service: an application the caller may not read answers as if it did not exist.
    if (!rlsAllows(application.access, 'read', caller)) throw publishingError('PUBLISHING_APPLICATION_NOT_FOUND');
    return application;
  }

  /** `traceContext`: the request's trace, which the application's write joins. */
  async publish(projectId: string, applicationId: string, caller: ProjectCaller, traceContext?: TraceContext): Promise<StoredVersion> {
    // Read first: the answer carries the snapshot (serverConfiguration included), and an
    // unreadable application must answer like an unknown one so ids cannot be probed.
    const application = await this.readable(projectId, applicationId, caller);
    if (!rlsAllows(application.access, 'update', caller)) throw publishingError('PUBLISHING_FORBIDDEN', { message: 'Publishing needs update permission on the application' });

    const version = snapshot(application, { publishedBy: caller.userId, now: this.clock(), attempt: randomUUID() });
    // The version row is claimed in the application patch's atomic section (before it on MongoDB).
    const claim = async (section: StoreSection) => {
      const claimed = await this.versions.claim(
        projectId,
        version,
        async () => {
          const current = await this.applications.live(projectId, applicationId);
          return current !== null && (current.publishedVersionNumber ?? 0) < version.versionNumber;
        },
        section,
      );
      if (!claimed) throw this.lost(version);
    };

    try {
      await this.writer.patch(
        ApplicationReader.scope(projectId),
        applicationId,
        { $set: { publishedVersionNumber: version.versionNumber, publishedVersionId: version.id, publishedAt: version.createdAt } },
        { userId: caller.userId, baseRevision: application.revision, preceding: claim, traceContext },
      );
    } catch (error) {
      // Only a definite refusal means this patch did not land; after any other failure it may have,
      // so the row stays (an unfinished publish is never listed). Even after a refusal the row
      // stays if another publish's patch took the number: that publish settles its own snapshot
      // over it, and until then it must not be missing.
      if (error instanceof AppError && (error.code === 'DATA_REVISION_CONFLICT' || error.code === 'DATA_ENTITY_NOT_FOUND')) {
        if (!(await this.taken(projectId, version))) await this.versions.withdraw(projectId, version);
        throw error.code === 'DATA_REVISION_CONFLICT' ? this.lost(version) : publishingError('PUBLISHING_APPLICATION_NOT_FOUND');
      }
      throw error;
    }
    // Before the resolutions are forgotten, so none is cached from a row another publish holds meanwhile.
    await this.versions.settle(projectId, version);
    this.onPublished(projectId, applicationId);
    return version;
  }

  /** Whether the application took the version's number: after a refused patch, another publish's landed. */
  private async taken(projectId: string, version: StoredVersion): Promise<boolean> {
    const application = await this.applications.stored(projectId, version.applicationId);
    return (application?.publishedVersionNumber ?? 0) >= version.versionNumber;
  }

  private lost(version: StoredVersion): AppError {
    return publishingError('PUBLISHING_CONCURRENT_PUBLISH', { details: { versionNumber: version.versionNumber } });
  }
}

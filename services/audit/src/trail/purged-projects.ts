import { PROJECTS_COLLECTION } from '@platform/contracts';
import type { Collection, DocumentStore } from '@platform/storage';

/** How long a project found not purged is taken as such without reading it again. */
const LIVE_FOR_MS = 1_000;
/** Projects remembered as live at most; the oldest answer goes first. */
const REMEMBERED = 10_000;

/**
 * The projects the trail records nothing of any more: purged ones, whose trail was erased. An
 * event of one can still arrive after the erasure (visitor retention running in the same hour,
 * a consumer's redelivery, another service's outbox): recorded, it would put part of an erased
 * trail back for good. A project is purged once its record says so (identity's `purgedAt`), or,
 * in this process, from the moment it erased the project's trail (identity marks the record
 * only after every service has handled the purge in the all-in-one).
 */
export class PurgedProjects {
  private readonly erased = new Set<string>();
  /** Projects found live, with when that answer expires. */
  private readonly liveUntil = new Map<string, number>();
  private readonly projects: Collection<{ id: string; purgedAt?: number }>;

  constructor(
    store: DocumentStore,
    private readonly now: () => number = Date.now,
  ) {
    this.projects = store.collection(PROJECTS_COLLECTION);
  }

  /** Called as the trail of `projectId` is erased, before anything of it is removed. */
  erasing(projectId: string): void {
    this.erased.add(projectId);
    this.liveUntil.delete(projectId);
  }

  async has(projectId: string): Promise<boolean> {
    if (this.erased.has(projectId)) return true;
    if ((this.liveUntil.get(projectId) ?? 0) > this.now()) return false;
    const project = await this.projects.findById(projectId, { projection: { purgedAt: 1 } });
    if (project?.purgedAt !== undefined) {
      this.erased.add(projectId);
      return true;
    }
    if (this.liveUntil.size >= REMEMBERED) this.liveUntil.delete(this.liveUntil.keys().next().value as string);
    this.liveUntil.set(projectId, this.now() + LIVE_FOR_MS);
    return false;
  }
}

import { applicationsCollection, type StoredEntity } from '@platform/documents';
import type { DocumentStore } from '@platform/storage';
import { LRUCache } from 'lru-cache';
import { checkInConfigurationSchema, findWidgets, type DeletionPeriod } from '@platform/widgets';

/** What the project's CheckIn widgets say about one visitor type. */
export interface VisitorTypeBinding {
  /** The deletion periods offered for it, the default one marked (several widgets: all of theirs). */
  periods: DeletionPeriod[];
  /** Event types whose widgets also name this visitor type. */
  eventTypeIds: string[];
}

export interface ProjectCheckIns {
  visitorTypes: ReadonlyMap<string, VisitorTypeBinding>;
  /** Event type id to the visitor types its widgets name (an event belongs to a visitor of one of them). */
  eventTypes: ReadonlyMap<string, string[]>;
}

/**
 * The project's check-in setup, read from the CheckIn widgets in its applications: a type is a
 * visitor type when a CheckIn widget names it as `visitorTypeId`, and a visitor-event type when
 * one names it as `visitorEventTypeId`. A widget whose configuration is invalid binds nothing.
 * Answers are cached briefly, since a kiosk sends bursts of check-ins to one project.
 */
export class CheckInDirectory {
  /** `missReloaded`: this entry was read again because a request asked for what the one before lacked. */
  private readonly cache = new LRUCache<string, { value: ProjectCheckIns; at: number; missReloaded: boolean }>({ max: 1_000 });
  /** The load under way per project: concurrent callers share it rather than each walking the applications. */
  private readonly loading = new Map<string, Promise<ProjectCheckIns>>();

  constructor(
    private readonly store: DocumentStore,
    private readonly clock: () => number,
    private readonly cacheMs = 2_000,
  ) {}

  /**
   * The project's setup, from the cache while it is fresh and `covers` the request. What the cached
   * setup lacks is read again before anyone is refused, once per cache period: a kiosk whose
   * application was created a moment ago (after the cache was filled) must be able to check in with
   * its own periods at once, but a stream of requests naming types no widget binds must not walk
   * the project's applications again for each of them. After that one reread, a miss is refused
   * from the fresh cache until it expires. Concurrent callers share one load.
   */
  async forProject(projectId: string, covers: (setup: ProjectCheckIns) => boolean): Promise<ProjectCheckIns> {
    const now = this.clock();
    const cached = this.cache.get(projectId);
    const fresh = cached !== undefined && now - cached.at < this.cacheMs;
    if (fresh && (covers(cached.value) || cached.missReloaded)) return cached.value;
    return this.reload(projectId, fresh);
  }

  /** One load per project at a time; `missed`: the fresh cache lacked what a request asked for. */
  private reload(projectId: string, missed: boolean): Promise<ProjectCheckIns> {
    const under = this.loading.get(projectId);
    if (under) return under;
    const at = this.clock();
    const loaded = this.load(projectId)
      .then((value) => {
        this.cache.set(projectId, { value, at, missReloaded: missed });
        return value;
      })
      .finally(() => this.loading.delete(projectId));
    this.loading.set(projectId, loaded);
    return loaded;
  }

  private async load(projectId: string): Promise<ProjectCheckIns> {
    const applications = await this.store
      .collection<StoredEntity>(applicationsCollection(projectId))
      .find({ deletedAt: { $exists: false } }, { sort: { id: 1 }, projection: { _outbox: 0 } });
    const visitorTypes = new Map<string, VisitorTypeBinding>();
    const eventTypes = new Map<string, string[]>();
    for (const application of applications) {
      for (const widget of findWidgets(application, 'CheckIn')) {
        const parsed = checkInConfigurationSchema.safeParse(widget.data ?? {});
        if (!parsed.success || !parsed.data.visitorTypeId) continue;
        const { visitorTypeId, visitorEventTypeId, deletionPeriods } = parsed.data;
        const binding = visitorTypes.get(visitorTypeId) ?? { periods: [], eventTypeIds: [] };
        mergePeriods(binding.periods, deletionPeriods);
        if (visitorEventTypeId && !binding.eventTypeIds.includes(visitorEventTypeId)) binding.eventTypeIds.push(visitorEventTypeId);
        visitorTypes.set(visitorTypeId, binding);
        if (visitorEventTypeId) {
          const owners = eventTypes.get(visitorEventTypeId) ?? [];
          if (!owners.includes(visitorTypeId)) owners.push(visitorTypeId);
          eventTypes.set(visitorEventTypeId, owners);
        }
      }
    }
    return { visitorTypes, eventTypes };
  }
}

/** Adds periods not offered yet (same duration = same period); the first default found stays the default. */
function mergePeriods(into: DeletionPeriod[], periods: DeletionPeriod[]): void {
  const hasDefault = into.some((period) => period.isDefault);
  for (const period of periods) {
    if (into.some((existing) => existing.duration === period.duration)) continue;
    into.push({ ...period, isDefault: period.isDefault && !hasDefault });
  }
}

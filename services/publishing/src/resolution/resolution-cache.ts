import { LRUCache } from 'lru-cache';

/** What a cached answer is about, so an application or domain change can drop exactly its entries. */
export interface ResolutionSubject {
  projectId?: string;
  applicationId?: string;
}

/**
 * A per-process cache of hostname resolutions in front of the store: an LRU with a short TTL,
 * bounded by entries and by the characters of their JSON (an answer carries its version's routes,
 * up to a megabyte: bounded by count alone, 10,000 verified hostnames on one large application
 * could hold gigabytes), concurrent misses for one hostname share one load, and `forget` drops entries at once.
 * A load that was running when something was forgotten is answered to its callers but not kept,
 * so a resolution that read the old state can never be cached after the change that replaced it.
 */
export class ResolutionCache<V extends ResolutionSubject> {
  private readonly entries: LRUCache<string, V>;
  private readonly loading = new Map<string, Promise<V>>();
  /** Bumped by every forget; a load keeps its answer only if none happened while it ran. */
  private generation = 0;

  constructor(
    private readonly load: (hostname: string) => Promise<V>,
    options: { ttlMs: number; max: number; maxCharacters: number },
  ) {
    this.entries = new LRUCache<string, V>({ max: options.max, ttl: options.ttlMs, maxSize: options.maxCharacters, sizeCalculation: (value) => Math.max(1, JSON.stringify(value).length) });
  }

  async get(hostname: string): Promise<V> {
    const cached = this.entries.get(hostname);
    if (cached) return cached;
    const running = this.loading.get(hostname);
    if (running) return running;
    const generation = this.generation;
    const loaded = this.load(hostname)
      .then((value) => {
        if (generation === this.generation) this.entries.set(hostname, value);
        return value;
      })
      .finally(() => {
        if (this.loading.get(hostname) === loaded) this.loading.delete(hostname);
      });
    this.loading.set(hostname, loaded);
    return loaded;
  }

  forgetHostnames(hostnames: Iterable<string>): void {
    this.generation += 1;
    for (const hostname of hostnames) {
      this.entries.delete(hostname);
      this.loading.delete(hostname);
    }
  }

  /** Drops every answer about the application (a publish, an edit, a deletion). */
  forgetApplication(projectId: string, applicationId: string): void {
    this.generation += 1;
    this.loading.clear();
    for (const [hostname, value] of this.entries.entries()) {
      if (value.projectId === projectId && value.applicationId === applicationId) this.entries.delete(hostname);
    }
  }
}

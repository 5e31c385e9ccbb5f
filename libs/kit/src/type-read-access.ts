import { typesCollection, type Access } from '@platform/contracts';
import type { DocumentStore } from '@platform/storage';
import { LRUCache } from 'lru-cache';
import { rlsAllows, type ProjectCaller } from './rls';

interface ProjectTypeRules {
  /** The ids this answers for: the project's types when read (deleted ones included) and ids since asked about that are no type. */
  known: Set<string>;
  /** Read rules of the types that have one, by type id. */
  readRules: Map<string, Access>;
  at: number;
}

/**
 * A type's `read` rule guards its documents on every read path (docs/data.md, "Types are guarded
 * like their project"): services other than data (audit trail, realtime, action runs) ask here
 * whether a caller may read a type's documents, from the shared store as the data service stores
 * types. Ids that are no type (`types`, `applications`) have no rule.
 *
 * Each project's rules are cached for `cacheMs` (the project-standing expiry): type access changes
 * are rare, and `forget` drops a project's rules with its standing (every access notice), so the
 * expiry bounds only a type's own access edit seen by another process. A type the cache does not
 * know (created since) is read again at once, and `unreadableTypes` (one audit-trail page) always
 * reads, so a type created with a read rule never shows its first documents. A lookup that was
 * reading while its project was forgotten answers what it read but does not cache it.
 */
export class TypeReadAccess {
  private readonly cache = new LRUCache<string, ProjectTypeRules>({ max: 10_000 });
  private readonly generations = new Map<string, number>();
  private epoch = 0;

  constructor(
    private readonly store: DocumentStore,
    private readonly clock: () => number,
    readonly cacheMs: number,
  ) {}

  /** Whether the type's read rule lets the caller read its documents. */
  async mayRead(projectId: string, typeId: string, caller: ProjectCaller): Promise<boolean> {
    if (caller.superuser) return true;
    const cached = this.cached(projectId);
    let rules = cached ?? (await this.read(projectId));
    if (!rules.known.has(typeId)) {
      if (cached) rules = await this.read(projectId);
      // Still unknown: no type (`types`, `applications` are asked about on every notification), read once per expiry.
      rules.known.add(typeId);
    }
    return rlsAllows(rules.readRules.get(typeId), 'read', caller);
  }

  /** The ids of the project's types whose read rule excludes the caller (none for superusers). */
  async unreadableTypes(projectId: string, caller: ProjectCaller): Promise<string[]> {
    if (caller.superuser) return [];
    const unreadable: string[] = [];
    for (const [typeId, access] of (await this.read(projectId)).readRules) if (!rlsAllows(access, 'read', caller)) unreadable.push(typeId);
    return unreadable;
  }

  forget(projectId: string): void {
    if (this.generations.size >= 10_000) return this.forgetAll();
    this.generations.set(projectId, (this.generations.get(projectId) ?? 0) + 1);
    this.cache.delete(projectId);
  }

  forgetAll(): void {
    this.epoch += 1;
    this.generations.clear();
    this.cache.clear();
  }

  private cached(projectId: string): ProjectTypeRules | undefined {
    const cached = this.cache.get(projectId);
    return cached && this.clock() - cached.at < this.cacheMs ? cached : undefined;
  }

  /** Reads the project's types, and caches them unless the project was forgotten meanwhile. */
  private async read(projectId: string): Promise<ProjectTypeRules> {
    const now = this.clock();
    const generation = this.generations.get(projectId) ?? 0;
    const epoch = this.epoch;
    const types = await this.store.collection<{ id: string; access?: Access }>(typesCollection(projectId)).find({}, { projection: { id: 1, access: 1 } });
    const rules: ProjectTypeRules = {
      known: new Set(types.map((type) => type.id)),
      readRules: new Map(types.flatMap((type) => (type.access?.read ? [[type.id, type.access] as const] : []))),
      at: now,
    };
    if (epoch !== this.epoch || generation !== (this.generations.get(projectId) ?? 0)) return rules;
    this.cache.set(projectId, rules);
    return rules;
  }
}

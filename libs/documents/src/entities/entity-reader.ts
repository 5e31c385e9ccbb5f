import type { EventSource } from '@platform/contracts';
import { rlsAllows, rlsFilter, type ProjectCaller } from '@platform/kit';
import { replayUpdates, type Collection, type DocumentStore, type Filter, type UpdateModifier } from '@platform/storage';
import { itemsWithinBudgets, PAGE_READ_BYTES, type PageBudget } from '../domain/page-budget';
import { documentError } from '../errors';
import { READ_PROJECTION, type EntityScope, type StoredEntity } from './entity';
import type { History } from './history';
import type { PullWatermarks } from './pull-watermarks';
import type { UpdatedAtClock } from './updated-at-clock';

export interface PullPage {
  /** At least `limit` when more follow (fewer where the read's bytes or the page's budgets end it sooner), and then all of the last millisecond's entities (see page). */
  items: StoredEntity[];
  /** Present when more items follow: pass it back as `cursor` for the next page (an optimisation: pulling from the largest `updatedAt` is as safe). */
  cursor?: string;
  /** A pull's last page only: readable changes newer than the pull's bound exist; pull again after this long. */
  retryAfterMs?: number;
}

/** A little over the settle margin, so the next pull's bound has passed the changes it was told of. */
const RETRY_MARGIN_MS = 50;

interface PullCursor {
  updatedAt: number;
  id: string;
  /** The upper bound the first page fixed, so later pages read the same consistent range. */
  until: number;
}

function encodeCursor(cursor: PullCursor): string {
  return Buffer.from(JSON.stringify([cursor.updatedAt, cursor.id, cursor.until])).toString('base64url');
}

export function decodeCursor(value: string): PullCursor | null {
  try {
    const [updatedAt, id, until] = JSON.parse(Buffer.from(value, 'base64url').toString()) as unknown[];
    if (typeof updatedAt === 'number' && typeof id === 'string' && typeof until === 'number') return { updatedAt, id, until };
  } catch {
    // fall through
  }
  return null;
}

/** What pulls and lists take: a page's size, where it continues, and what else bounds it. */
interface PageOptions {
  limit: number;
  cursor?: PullCursor;
  /** What the page's answer may spend (its characters, its changes): the page ends sooner, between two milliseconds, rather than pass one. */
  budgets?: ReadonlyArray<PageBudget<StoredEntity>>;
}

/** The order pulls and lists page in; indexed so a page reads only its own entities. */
const PAGE_ORDER = { updatedAt: 1, id: 1 } as const;

/** Reads with RLS applied at the store, never loading history unless asked for. */
export class EntityReader {
  /** Collections whose page-order index this process has ensured. */
  private readonly indexed = new Set<string>();

  constructor(
    private readonly store: DocumentStore,
    private readonly history: History,
    private readonly timestamps: UpdatedAtClock,
    /** Only with a store shared by several processes. */
    private readonly watermarks?: PullWatermarks,
    /** What one page's read may hold of its documents as stored (PAGE_READ_BYTES). */
    private readonly readBytes = PAGE_READ_BYTES,
  ) {}

  /** One entity the caller may read (deleted ones too), or 404. */
  async readable(scope: EntityScope, id: string, caller: ProjectCaller): Promise<StoredEntity> {
    const entity = await this.store.collection<StoredEntity>(scope.collection).findById(id, { projection: READ_PROJECTION });
    if (!entity || !rlsAllows(entity.access, 'read', caller)) throw documentError('DATA_ENTITY_NOT_FOUND');
    return entity;
  }

  /** Entity with its outbox, for writes that need the complete change list afterwards. */
  async withChanges(scope: EntityScope, entity: StoredEntity): Promise<Record<string, unknown>> {
    const { _outbox, ...visible } = entity;
    return { ...visible, changes: await this.history.changes(scope.collection, entity) };
  }

  /**
   * withChanges as JSON text, for the answers of writes (POST, PATCH, DELETE): the same text
   * `JSON.stringify(await withChanges(...))` gives, with the history's part reused from the cache.
   */
  async withChangesJson(scope: EntityScope, entity: StoredEntity): Promise<string> {
    const { _outbox, ...visible } = entity;
    const fields = JSON.stringify(visible);
    // `visible` always holds id and revision, so its text is `{...}` with at least one field; `changes` is a server-owned name no stored entity has.
    return `${fields.slice(0, -1)},"changes":${await this.history.changesJson(scope.collection, entity)}}`;
  }

  /**
   * One page of the entity's changes, newest first: revisions `fromRevision` down to
   * `fromRevision - limit + 1` (not below 0), each with its revision. History reads only that
   * range, from the store or the cached prefix; erased changes (visitor retention) are missing.
   */
  async changesPage(scope: EntityScope, entity: StoredEntity, fromRevision: number, limit: number): Promise<Array<EventSource & { revision: number }>> {
    const changes = await this.history.changes(scope.collection, { ...entity, revision: fromRevision }, fromRevision - limit);
    return changes.map((change) => ({ revision: change.baseRevision + 1, ...change })).reverse();
  }

  /**
   * The entity's fields at `revision`: its changes 0 to `revision` replayed on an empty document,
   * as the history shows them (server-owned fields such as `revision` are not among them).
   */
  async stateAt(scope: EntityScope, entity: StoredEntity, revision: number): Promise<Record<string, unknown>> {
    return replayUpdates((await this.history.changes(scope.collection, { ...entity, revision })).map((change) => change.modifier as UpdateModifier));
  }

  /**
   * Entities changed after `since` (deleted ones included, so clients can classify removals), in
   * (updatedAt, id) order, up to the clock's stable bound, pages of `limit` or more that end on a millisecond.
   */
  async pull(scope: EntityScope, caller: ProjectCaller, options: PageOptions & { since: number }): Promise<PullPage> {
    const until = options.cursor?.until ?? this.timestamps.stableUntil();
    // A continued pull reads up to the `until` its first page already raised the mark to.
    if (!options.cursor) await this.watermarks?.raise(scope.collection, until);
    const after: Filter = options.cursor
      ? { $or: [{ updatedAt: { $gt: options.cursor.updatedAt } }, { updatedAt: options.cursor.updatedAt, id: { $gt: options.cursor.id } }] }
      : { updatedAt: { $gt: options.since } };
    const page = await this.page(scope, caller, { $and: [after, { updatedAt: { $lte: until } }] }, options, until);
    if (page.cursor || !(await this.newerThan(scope, caller, Math.max(until, options.since)))) return page;
    return { ...page, retryAfterMs: this.timestamps.settleMs + RETRY_MARGIN_MS };
  }

  /**
   * Whether the caller may read a change stamped after `bound`: one the pull could not return yet
   * (written in the last moment, or still in flight). Without telling, a client whose pull came
   * right after a write, with no notification to follow (it subscribed later), would wait for the
   * next change to see it.
   */
  private async newerThan(scope: EntityScope, caller: ProjectCaller, bound: number): Promise<boolean> {
    const readable = rlsFilter('read', caller);
    const newer: Filter = { updatedAt: { $gt: bound } };
    const query = Object.keys(readable).length ? { $and: [newer, readable] } : newer;
    return (await this.store.collection<StoredEntity>(scope.collection).find(query, { sort: PAGE_ORDER, limit: 1, projection: { id: 1 } })).length > 0;
  }

  /** The live (not deleted) entities, in (updatedAt, id) order, `limit` per page. */
  async list(scope: EntityScope, caller: ProjectCaller, options: PageOptions): Promise<PullPage> {
    const until = options.cursor?.until ?? Number.MAX_SAFE_INTEGER;
    const after: Filter = options.cursor
      ? { $or: [{ updatedAt: { $gt: options.cursor.updatedAt } }, { updatedAt: options.cursor.updatedAt, id: { $gt: options.cursor.id } }] }
      : {};
    return this.page(scope, caller, { $and: [after, { deletedAt: { $exists: false } }] }, options, until);
  }

  /**
   * One page of `filter`, `limit` entities or more: a page never ends inside a millisecond, so it
   * runs over the limit by the rest of the entities sharing its last `updatedAt` (writes in one
   * millisecond share it). A client that pulls again from the largest `updatedAt` it saw then misses
   * nothing; the cursor continues at the same place. The overrun is bounded by how many writes
   * one millisecond holds, and read with its own query, never with the whole collection.
   */
  private async page(scope: EntityScope, caller: ProjectCaller, filter: Filter, options: PageOptions, until: number): Promise<PullPage> {
    const page = await this.fullPage(scope, caller, filter, options.limit, until);
    if (!options.budgets?.length) return page;
    // Budgets that need no reading cut first, so those that do read nothing the page will not keep.
    const costed = options.budgets.filter((budget) => budget.prepare === undefined);
    const candidates = costed.length ? page.items.slice(0, itemsWithinBudgets(page.items, costed)) : page.items;
    for (const budget of options.budgets) await budget.prepare?.(candidates);
    const kept = itemsWithinBudgets(page.items, options.budgets);
    if (kept === page.items.length) return page;
    const last = page.items[kept - 1] as StoredEntity;
    return { items: page.items.slice(0, kept), cursor: encodeCursor({ updatedAt: last.updatedAt, id: last.id, until }) };
  }

  /** page() before its budgets: `limit` entities, or more to finish the last millisecond. */
  private async fullPage(scope: EntityScope, caller: ProjectCaller, filter: Filter, limit: number, until: number): Promise<PullPage> {
    const readable = rlsFilter('read', caller);
    const query = Object.keys(readable).length ? { $and: [filter, readable] } : filter;
    const collection = this.store.collection<StoredEntity>(scope.collection);
    if (!this.indexed.has(scope.collection)) {
      await collection.ensureIndex({ keys: PAGE_ORDER });
      this.indexed.add(scope.collection);
    }
    const read = await collection.findWithin(query, { sort: PAGE_ORDER, limit: limit + 1, projection: READ_PROJECTION }, this.readBytes);
    const items = read.documents;
    if (read.stoppedByBytes) return this.endedByBytes(collection, query, items, until);
    if (items.length <= limit) return { items };
    const page = items.slice(0, limit);
    const last = page[page.length - 1] as StoredEntity;
    const next = items[limit] as StoredEntity;
    if (next.updatedAt !== last.updatedAt) return { items: page, cursor: encodeCursor({ updatedAt: last.updatedAt, id: last.id, until }) };
    return this.finishedMillisecond(collection, query, page, until);
  }

  /**
   * A page whose read stopped at its bytes: it ends before the millisecond the read stopped in,
   * whose other entities may not have been read; when that is its first millisecond, the page
   * holds that millisecond whole (a page never ends inside one).
   */
  private async endedByBytes(collection: Collection<StoredEntity>, query: Filter, items: StoredEntity[], until: number): Promise<PullPage> {
    const stoppedIn = (items[items.length - 1] as StoredEntity).updatedAt;
    const whole = items.filter((item) => item.updatedAt !== stoppedIn);
    if (whole.length === 0) return this.finishedMillisecond(collection, query, items, until);
    const last = whole[whole.length - 1] as StoredEntity;
    return { items: whole, cursor: encodeCursor({ updatedAt: last.updatedAt, id: last.id, until }) };
  }

  /** `page` with the rest of its last millisecond's entities, and a cursor when more follow. */
  private async finishedMillisecond(collection: Collection<StoredEntity>, query: Filter, page: StoredEntity[], until: number): Promise<PullPage> {
    const last = page[page.length - 1] as StoredEntity;
    const rest = await collection.find({ $and: [query, { updatedAt: last.updatedAt, id: { $gt: last.id } }] }, { sort: PAGE_ORDER, projection: READ_PROJECTION });
    const finished = [...page, ...rest];
    const end = finished[finished.length - 1] as StoredEntity;
    const more = await collection.find({ $and: [query, { updatedAt: { $gt: end.updatedAt } }] }, { sort: PAGE_ORDER, limit: 1, projection: { id: 1 } });
    return more.length ? { items: finished, cursor: encodeCursor({ updatedAt: end.updatedAt, id: end.id, until }) } : { items: finished };
  }
}

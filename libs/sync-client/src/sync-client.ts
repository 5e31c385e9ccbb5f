import { AnnouncingStore } from './announcing-store.js';
import { browserSaysOffline, browserWindow, OfflineError } from './browser-network.js';
import { Emitter, type SyncEvents } from './emitter.js';
import { Http, isTransientStatus, NetworkError, UnauthorizedError, type HttpAnswer } from './http.js';
import { joinUnderWay } from './join-under-way.js';
import { INVALID_VALUE, jsonFields } from './json-values.js';
import { MemoryStore, type LocalStore } from './local-store.js';
import { bulkOperation, PUSH_BATCH_MAX, pushBatches, type QueuedWrite } from './push-batches.js';
import { readableIds } from './readable-ids.js';
import { refusalOf, type RefusalBody } from './refusals.js';
import { RealtimeLink } from './realtime-link.js';
import { TabChangeBuilder } from './tab-change.js';
import type { TabCoordinator, TabRole, TabStoreChange } from './tab-coordinator.js';
import {
  afterPush,
  applyPulled,
  deepEqual,
  discardLocalChanges,
  fieldsOf,
  fieldNameProblem,
  isEntityId,
  isOwnCreation,
  mayExistOnServer,
  pendingOperation,
  rebaseOnServer,
  rememberSentInsert,
  resolveRevisionConflict,
  serverDocument,
  stateOf,
  visibleDocument,
  type LocalDocument,
} from './records.js';
import { Backoff, holdProcess, systemTimers, type BackoffOptions, type Timers } from './timers.js';
import type { EntityRecord, FieldChoice, FieldConflict, LocalChange, PullResult, RealtimeStatus, SyncConflict, SyncDocument, SyncNotification, SyncState, SyncType, SyncTypeChange } from './types.js';

export interface CollectionOptions {
  typeId: string;
  /** Pull within about 1.5 s of a remote change; otherwise a change only raises `changesAvailable`. */
  realtime?: boolean;
  /** Until the server's type record says otherwise (read at start and on every heartbeat). */
  syncType?: SyncType;
}

export interface SyncClientOptions {
  /** The platform's base URL, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  projectId: string;
  /** A session token (sent as `Authorization: Bearer`); omit it when a cookie carries the session. */
  token?: string;
  /**
   * Asked for the session token before the first request and again after every 401 (then the
   * client pauses and retries with backoff, or at once on `online()`, until a token works).
   */
  getToken?: () => string | undefined | Promise<string | undefined>;
  headers?: Record<string, string>;
  /** The collections (type ids) to keep a copy of. */
  collections: Array<string | CollectionOptions>;
  /** Where the copy lives (default: in memory). */
  store?: LocalStore;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  timers?: Timers;
  /** Retry delays of a failed push and of a broken realtime link. */
  backoff?: BackoffOptions;
  /** Try the realtime channel (default true); without it the client polls. */
  realtime?: boolean;
  /** Polling interval without realtime (spec: 5 s). */
  pollIntervalMs?: number;
  /** Heartbeat poll while realtime is live (spec: 30 s). */
  heartbeatMs?: number;
  /** A realtime collection pulls this long after the first notification of a burst (default 1 s). */
  realtimeDebounceMs?: number;
  /** How long one request may take before it counts as a network failure and is retried (default 30 s). */
  requestTimeoutMs?: number;
  /**
   * The server's keep-alive interval on the realtime stream until the stream announces its own
   * (default 15 s; the gateway announces `REALTIME_KEEP_ALIVE_MS` in its `ready` event, which wins):
   * a stream with neither an event nor a keep-alive for twice this long is taken as dead (a silent
   * network drop), dropped and reconnected; once live again the client pushes and pulls at once.
   */
  streamKeepAliveMs?: number;
  /** Queued writes per push request (`POST .../data/bulk`; default and most 500, and about 512 KiB of UTF-8). */
  pushBatchSize?: number;
  /** Documents per pull page (server default 1000, at most 5000). */
  pageSize?: number;
  /** Ids for inserted entities (default crypto.randomUUID). */
  newId?: () => string;
  /** Node: keep the process alive while changes wait to be pushed (retry timers are unref'd otherwise). */
  keepProcessAlive?: boolean;
  /** How often the local ids are checked against `POST .../data/readable` (default 5 min); also at start and on `access-changed`. */
  accessCheckMs?: number;
  /** When the project answers 404 (removed from it, or deleted), drop its local copy too (default: keep it). */
  purgeOnProjectLost?: boolean;
  /** `awaitInSync` pulls until a pull started this long after the call (the server's window for concurrent writes; default 1 s). */
  inSyncSettleMs?: number;
  /**
   * `automatic` (default): a 409 whose details show that the server touched none of the fields this
   * client changed, or only to the value this client wrote, is merged (re-pushed on the current
   * revision) without a conflict. `manual`: every 409 becomes a conflict, except one where every
   * field already holds this client's value (its own patch whose answer was lost).
   */
  mergePolicy?: MergePolicy;
  /**
   * Browser tabs sharing one IndexedDB store: only the tab holding the coordinator's lock syncs with
   * the server; the others follow (no requests; their writes are pushed by the leader) and take
   * over when it closes. Every tab's `change` events and views follow the others' writes.
   */
  tabs?: TabCoordinator;
}

/** What a 409 on disjoint fields becomes: merged by the client, or a conflict for the application. */
export type MergePolicy = 'automatic' | 'manual';

/** An answer the client cannot retry its way out of. */
export class SyncError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
    /** The collection whose pull failed, when the failure is one collection's own. */
    readonly typeId?: string,
  ) {
    super(message);
    this.name = 'SyncError';
  }
}

/** Refuses a write locally, before anything is queued, when a field name is one the server would refuse or misread. */
function refuseFieldName(problem: { code: string; message: string } | undefined): void {
  if (problem) throw new SyncError(problem.message, undefined, problem.code);
}

/**
 * The written fields as JSON will carry them (see jsonFields), or a SyncError before anything is
 * queued: `SYNC_INVALID_VALUE` for a value JSON cannot carry or would change (BigInt, a cycle,
 * NaN, ±Infinity, a Date or other class instance, a function, undefined or a hole in an array),
 * `SYNC_FORBIDDEN_KEY` for a key the server refuses (`__proto__`, `constructor`, `prototype`), at any depth.
 */
function jsonWrite(fields: Record<string, unknown>, options: { removals?: boolean } = {}): Record<string, unknown> {
  const checked = jsonFields(fields, options);
  if ('problem' in checked) throw new SyncError(checked.problem.message, undefined, checked.problem.code);
  return checked.fields;
}

/** The server is busy or unreachable: retried with backoff, never sooner than its `Retry-After`. */
class TransientError extends Error {
  constructor(
    status: number,
    readonly retryAfterMs?: number,
  ) {
    super(`HTTP ${status}`);
    this.name = 'TransientError';
  }
}

/** The wait before retrying after `error`: the backoff's next step, or longer when the server asked for it. */
function retryDelay(error: unknown, backoff: Backoff): number {
  return backoff.next(error instanceof TransientError ? error.retryAfterMs : undefined);
}

const PROJECT_NOT_FOUND = 'PROJECT_NOT_FOUND';
const TYPE_NOT_FOUND = 'DATA_TYPE_NOT_FOUND';
/** The collection of type records: their changes concern the collections of those types. */
const TYPES = 'types';

/** Failures that go away by waiting: the network, a busy server, a session that may be renewed. */
function isRetryable(error: unknown): boolean {
  return error instanceof NetworkError || error instanceof TransientError || error instanceof UnauthorizedError;
}

interface Collection {
  options: CollectionOptions;
  syncType: SyncType;
  records: Map<string, EntityRecord>;
  /** The largest `updatedAt` a completed pull saw. */
  cursor: number;
  /** Bumped when the cursor starts over: a pull that began before does not move it on. */
  cursorEpoch: number;
  /**
   * The caller's standing (pulls carry its digest) the cursor was reached under; when a pull
   * meets another, entities behind the cursor may have become readable, so it starts over.
   * Undefined until a server that sends it answered a pull.
   */
  standing: string | undefined;
  changesAvailable: boolean;
  pullTimer: unknown;
  pulling: Promise<PullResult> | undefined;
  /** The pull that follows the one under way, for every call made while it ran (see pull). */
  nextPull: Promise<PullResult> | undefined;
}

const META = 'meta';
const entitiesStore = (typeId: string) => `entities:${typeId}`;
const entityKey = (typeId: string, id: string) => `${typeId}/${id}`;

interface ErrorBody extends RefusalBody {
  details?: RefusalBody['details'] & {
    baseRevision?: number;
    currentRevision?: number;
    current?: Record<string, unknown>;
    fields?: FieldConflict[];
    /** A bulk answer's conflict past the server's budget of details: send the write again alone. */
    detailsOmitted?: boolean;
  };
  /** A bulk answer's success past the server's budget of documents: the body holds only the version (see pushAnswerOf). */
  bodyOmitted?: boolean;
}

/**
 * Keeps a local copy of chosen collections of one project in sync with the platform over REST: see
 * the package README for the model (pull by `updatedAt`, push with `baseRevision`, offline queue,
 * conflicts, localOnly types, realtime with polling fallback).
 */
export class SyncClient {
  private readonly http: Http;
  private readonly store: LocalStore;
  private readonly timers: Timers;
  private readonly events = new Emitter();
  private readonly collections = new Map<string, Collection>();
  private readonly pushBackoff: Backoff;
  private readonly link: RealtimeLink | undefined;
  private readonly inFlight = new Set<string>();
  private readonly deferred = new Map<string, SyncNotification>();
  private opened: Promise<void> | undefined;
  private pushing: Promise<void> | undefined;
  private pushAgain = false;
  private pushRetry: unknown;
  private pollTimer: unknown;
  private running = false;
  private status: RealtimeStatus = 'stopped';
  private lastTypeRefresh = Number.NEGATIVE_INFINITY;
  /** The session was refused: background push and pull wait for a token that works. */
  private unauthorized = false;
  private authRetry: unknown;
  private readonly authBackoff: Backoff;
  private lost = false;
  private closed = false;
  private accessTimer: unknown;
  private accessCheck: Promise<void> | undefined;
  /** Scopes asked of `checkAccess` that the check under way has not started on yet. */
  private accessWanted: { all: boolean; typeIds: Set<string> } | undefined;
  private readonly onBrowserOnline = () => this.online();
  private readonly onBrowserOffline = () => this.goOffline();
  /** The browser says it has no network: background attempts wait for its `online` event. */
  private offline = false;
  /** `awaitInSync` calls waiting for the network: woken by `online()` (and so the `online` event) and `close()`. */
  private readonly networkWaiters = new Set<() => void>();
  private readonly reported = new WeakSet<SyncError>();
  /** The realtime link fell back to polling since it was last live. */
  private linkWasDown = false;
  private tabRole: TabRole | undefined;
  /** Started, but another tab leads: syncing starts when this tab takes over. */
  private following = false;

  constructor(private readonly options: SyncClientOptions) {
    this.http = new Http({ baseUrl: options.baseUrl, token: options.token, getToken: options.getToken, headers: options.headers, fetch: options.fetch, timeoutMs: options.requestTimeoutMs });
    const store = options.store ?? new MemoryStore();
    this.store = options.tabs ? new AnnouncingStore(store, options.tabs) : store;
    options.tabs?.listen((change) => void this.onTabChange(change).catch((error: unknown) => this.backgroundFailure(error)));
    this.timers = options.timers ?? systemTimers;
    this.pushBackoff = new Backoff(options.backoff);
    this.authBackoff = new Backoff(options.backoff);
    for (const entry of options.collections) {
      const collectionOptions = typeof entry === 'string' ? { typeId: entry } : entry;
      this.collections.set(collectionOptions.typeId, {
        options: collectionOptions,
        syncType: collectionOptions.syncType ?? 'remote',
        records: new Map(),
        cursor: 0,
        cursorEpoch: 0,
        standing: undefined,
        changesAvailable: false,
        pullTimer: undefined,
        pulling: undefined,
        nextPull: undefined,
      });
    }
    if (options.realtime !== false) {
      this.link = new RealtimeLink({
        http: this.http,
        projectId: options.projectId,
        timers: this.timers,
        backoff: new Backoff(options.backoff),
        recheckDisabledMs: this.heartbeatMs,
        stallMs: 2 * (options.streamKeepAliveMs ?? 15_000),
        onNotification: (notification) => this.onNotification(notification),
        onAccessChanged: (change) => this.onAccessChanged(change.typeId),
        onStatus: (status) => this.onRealtimeStatus(status),
        onUnauthorized: (code) => this.pauseUnauthorized(code),
        onProjectMissing: () => void this.sync().catch((error: unknown) => this.backgroundFailure(error)),
      });
    }
  }

  private get pollIntervalMs(): number {
    return this.options.pollIntervalMs ?? 5_000;
  }

  private get heartbeatMs(): number {
    return this.options.heartbeatMs ?? 30_000;
  }

  /** Loads the local copy from the store (done by `start` and by every operation if needed). */
  open(): Promise<void> {
    if (this.closed) return Promise.reject(new SyncError('The sync client is closed'));
    this.opened ??= (async () => {
      for (const collection of this.collections.values()) {
        const { typeId } = collection.options;
        for (const record of await this.store.getAll<EntityRecord>(entitiesStore(typeId))) collection.records.set(record.id, record);
        await this.loadMeta(collection);
      }
    })();
    return this.opened;
  }

  private async loadMeta(collection: Collection): Promise<void> {
    const { typeId } = collection.options;
    collection.cursor = (await this.store.get<number>(META, `cursor:${typeId}`)) ?? 0;
    collection.standing = await this.store.get<string>(META, `standing:${typeId}`);
    collection.syncType = (await this.store.get<SyncType>(META, `syncType:${typeId}`)) ?? collection.syncType;
  }

  /**
   * Opens the copy, reads the types' syncType, pushes what is queued, pulls, and keeps syncing in
   * the background: realtime notifications plus a 30 s heartbeat, or 5 s polling without realtime.
   */
  async start(): Promise<void> {
    await this.open();
    if (this.lost) throw new SyncError(`Project ${this.options.projectId} not found`, 404, PROJECT_NOT_FOUND);
    const { tabs } = this.options;
    if (tabs && !this.leadsTabs()) {
      // Set before claiming, so that a takeover while the claim settles starts syncing.
      this.following = true;
      if (this.tabRole === undefined) {
        const role = await tabs.claim(() => this.takeOver());
        if (!this.leadsTabs()) this.tabRole = role;
      }
      // Following, or the takeover already started syncing.
      if (!this.leadsTabs() || !this.following) return;
      this.following = false;
    }
    await this.startSyncing();
  }

  private leadsTabs(): boolean {
    return this.tabRole === 'leader';
  }

  /** This tab now leads: read what the previous leader saved, then sync as `start` does. */
  private async takeOver(): Promise<void> {
    this.tabRole = 'leader';
    if (!this.following || this.closed) return;
    this.following = false;
    for (const collection of this.collections.values()) await this.loadMeta(collection);
    await this.startSyncing().catch((error: unknown) => this.backgroundFailure(error));
  }

  private async startSyncing(): Promise<void> {
    this.running = true;
    browserWindow?.addEventListener('online', this.onBrowserOnline);
    browserWindow?.addEventListener('offline', this.onBrowserOffline);
    // Offline at start: nothing would get through; the `online` event syncs.
    if (browserSaysOffline()) return this.goOffline();
    try {
      // Unreachable: the type records are read again at the next heartbeat; the sync below retries.
      await this.refreshSyncTypes().catch((error: unknown) => {
        if (!(error instanceof NetworkError || error instanceof TransientError)) throw error;
      });
      const { results, failures } = await this.syncAll();
      // A collection that failed for good (a missing type) is reported by `error` and the others
      // keep syncing; when nothing could be pulled at all, the caller has something to fix.
      const fatal = failures.find((failure) => !isRetryable(failure));
      if (fatal && results.length === 0) throw fatal;
      const retryable = failures.find(isRetryable);
      if (retryable) throw retryable;
    } catch (error) {
      // Offline or signed out: start anyway and catch up by itself. Anything else (a missing type,
      // a lost project, a refusal) is the caller's to fix: reported here, and nothing keeps running.
      if (!isRetryable(error)) {
        await this.stop();
        throw error;
      }
      this.backgroundFailure(error);
    }
    if (!this.running) return;
    this.scheduleAccessCheck(0);
    if (this.unauthorized) return;
    if (browserSaysOffline()) return this.goOffline();
    this.startRealtime();
  }

  /** Realtime with the heartbeat, or polling without it. */
  private startRealtime(): void {
    if (this.link) this.link.start();
    else this.onRealtimeStatus('polling');
  }

  /**
   * The browser lost the network (its `offline` event, or `navigator.onLine === false` when an
   * attempt was due): every attempt would fail and grow the backoff, so push, polling and realtime
   * wait, and `realtimeStatus` says `offline` until the `online` event (or `online()`).
   */
  private goOffline(): void {
    if (!this.running || this.offline) return;
    this.offline = true;
    for (const handle of [this.pollTimer, this.pushRetry]) if (handle !== undefined) this.timers.clearTimeout(handle);
    this.pollTimer = this.pushRetry = undefined;
    this.link?.stop();
    this.onRealtimeStatus('offline');
  }

  /** Stops background work; the local copy stays in the store. */
  async stop(): Promise<void> {
    this.running = false;
    this.following = false;
    this.link?.stop();
    browserWindow?.removeEventListener('online', this.onBrowserOnline);
    browserWindow?.removeEventListener('offline', this.onBrowserOffline);
    this.offline = false;
    for (const handle of [this.pollTimer, this.pushRetry, this.authRetry, this.accessTimer, ...[...this.collections.values()].map((c) => c.pullTimer)]) {
      if (handle !== undefined) this.timers.clearTimeout(handle);
    }
    this.pollTimer = undefined;
    this.pushRetry = undefined;
    this.authRetry = undefined;
    this.accessTimer = undefined;
    for (const collection of this.collections.values()) collection.pullTimer = undefined;
    await Promise.allSettled([this.pushing, this.accessCheck, ...[...this.collections.values()].map((c) => c.pulling)]);
    this.status = 'stopped';
  }

  /** Stops and closes the store; no event is emitted after it is called. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.events.mute();
    await this.stop();
    this.closed = true;
    this.wakeNetworkWaiters();
    await this.store.close();
    this.options.tabs?.close();
  }

  /**
   * Another tab wrote a record of the shared store: take the stored version into the view (in place,
   * so a push under way sees a newer `seq` and keeps the change queued), report it, and, leading,
   * push what the other tab queued.
   */
  private async onTabChange({ storeName, key }: TabStoreChange): Promise<void> {
    await this.open();
    const collection = [...this.collections.values()].find((candidate) => entitiesStore(candidate.options.typeId) === storeName);
    if (!collection || this.closed) return;
    const { typeId } = collection.options;
    const change = new TabChangeBuilder(typeId);
    let queued = false;
    for (const id of key !== undefined ? [key] : [...collection.records.keys()]) {
      const before = collection.records.get(id);
      const shownBefore = before && visibleDocument(before);
      const stored = await this.store.get<EntityRecord>(storeName, id);
      if (!stored) collection.records.delete(id);
      else if (before) replaceContents(before, stored);
      else collection.records.set(id, stored);
      change.add(shownBefore, stored && visibleDocument(stored));
      if (stored) {
        this.events.emit('state', { typeId, id, state: stateOf(stored) });
        queued ||= pendingOperation(stored) !== undefined;
      }
    }
    if (!change.isEmpty) this.events.emit('change', change.change);
    if (queued && this.running) this.schedulePush();
  }

  /**
   * The network is back (the application knows, or the browser's `online` event said so): retry
   * at once instead of waiting out the backoff, reconnect realtime, and if the session was refused
   * ask `getToken` again.
   */
  online(): void {
    this.wakeNetworkWaiters();
    if (!this.running) return;
    this.pushBackoff.reset();
    this.authBackoff.reset();
    if (this.offline) {
      this.offline = false;
      // Started offline, the access check was never scheduled.
      this.scheduleAccessCheck(0);
      if (this.unauthorized) this.onRealtimeStatus('stopped');
      else this.startRealtime();
    }
    if (this.unauthorized) return this.scheduleAuthProbe(0);
    if (this.pushRetry !== undefined) {
      this.timers.clearTimeout(this.pushRetry);
      this.pushRetry = undefined;
    }
    this.link?.reconnectNow();
    void this.sync().catch((error: unknown) => this.backgroundFailure(error));
  }

  /** Whether the session was refused and syncing waits for a token that works (event `unauthorized`). */
  get isUnauthorized(): boolean {
    return this.unauthorized;
  }

  /** Whether the project answered 404 and syncing it stopped (event `projectLost`). */
  get projectLost(): boolean {
    return this.lost;
  }

  /**
   * Resolves once nothing is queued and a pull has brought everything written on the server
   * before the call (waiting out the network and a refused session meanwhile). While the browser
   * says it has no network it tries nothing and waits for its `online` event (or `online()`, which
   * also cuts a retry's backoff short). Conflicts do not hold it: they wait for the application.
   * Rejects when the client is closed or the project lost, and on errors that waiting cannot fix.
   */
  async awaitInSync(): Promise<void> {
    const since = this.timers.now();
    const settleMs = this.options.inSyncSettleMs ?? 1_000;
    for (;;) {
      if (this.closed) throw new SyncError('The sync client is closed');
      // Nothing can get through: wait for the browser's word that the network is back, not a backoff.
      if (browserSaysOffline()) {
        await this.untilOnline();
        continue;
      }
      const startedAt = this.timers.now();
      try {
        const results = await this.sync();
        const changed = results.some((result) => result.added.length + result.modified.length + result.removed.length > 0);
        if (startedAt >= since + settleMs && !changed && !this.hasQueuedWork()) return;
        await this.sleep(Math.max(0, since + settleMs - this.timers.now()));
      } catch (error) {
        if (!isRetryable(error)) throw error;
        await this.untilOnline(error instanceof UnauthorizedError ? this.authBackoff.next() : retryDelay(error, this.pushBackoff));
      }
    }
  }

  /**
   * Resolves when the network may be back: `online()`, the window's `online` event (heard here too,
   * since a client that was never started does not listen), `close()`, or after `ms` when given.
   */
  private untilOnline(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: unknown;
      const wake = () => {
        if (timer !== undefined) this.timers.clearTimeout(timer);
        browserWindow?.removeEventListener('online', wake);
        this.networkWaiters.delete(wake);
        resolve();
      };
      if (ms !== undefined) {
        timer = this.timers.setTimeout(wake, ms);
        // The caller waits on it (awaitInSync): a Node process stays alive for it, as for a request.
        holdProcess(timer);
      }
      browserWindow?.addEventListener('online', wake);
      this.networkWaiters.add(wake);
    });
  }

  private wakeNetworkWaiters(): void {
    for (const wake of [...this.networkWaiters]) wake();
  }

  /**
   * What an application's `sync()`, `push()` or `pull()` meets while the browser says it has no
   * network: an OfflineError at once (no request, the queue kept), and the client waits for the
   * `online` event as if it had heard `offline`.
   */
  private offlineRefusal(): OfflineError | undefined {
    if (!browserSaysOffline()) return undefined;
    this.goOffline();
    return new OfflineError();
  }

  /** An explicit wait of a caller (awaitInSync): unlike background timers, it keeps a Node process alive until it ends. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => holdProcess(this.timers.setTimeout(resolve, ms)));
  }

  private hasQueuedWork(): boolean {
    for (const collection of this.collections.values()) {
      if (collection.syncType === 'localOnly') continue;
      for (const record of collection.records.values()) if (pendingOperation(record)) return true;
    }
    return false;
  }

  on<K extends keyof SyncEvents>(name: K, listener: (event: SyncEvents[K]) => void): () => void {
    return this.events.on(name, listener);
  }

  get realtimeStatus(): RealtimeStatus {
    return this.status;
  }

  /** The handle for one collection (a type id given in the options); `T` types its documents, e.g. an interface from GET .../types.d.ts. */
  collection<T extends object = Record<string, unknown>>(typeId: string): SyncCollection<T> {
    this.require(typeId);
    return new SyncCollection<T>(this, typeId);
  }

  /**
   * Pushes everything queued and pulls every remote collection, each on its own: a stuck push
   * does not hold back the pulls, and a collection that fails (reported by `error` with its
   * `typeId`) does not hold back the others. Rejects with the first failure once all are done: the
   * server unreachable, the session refused (UnauthorizedError), the project lost, a collection's pull.
   * While the browser says it has no network it rejects at once with OfflineError (nothing sent).
   */
  async sync(): Promise<PullResult[]> {
    const offline = this.offlineRefusal();
    if (offline) throw offline;
    const { results, failures } = await this.syncAll();
    if (failures.length > 0) throw failures[0];
    return results;
  }

  private async syncAll(): Promise<{ results: PullResult[]; failures: unknown[] }> {
    const [pushed, ...pulled] = await Promise.allSettled([this.push(), ...[...this.collections.keys()].map((typeId) => this.pull(typeId))]);
    const results: PullResult[] = [];
    const failures: unknown[] = [];
    if (pushed?.status === 'rejected') failures.push(pushed.reason);
    for (const outcome of pulled) {
      if (outcome.status === 'fulfilled') results.push(outcome.value as PullResult);
      else failures.push(outcome.reason);
    }
    for (const failure of failures) if (failure instanceof SyncError && failure.typeId !== undefined) this.reportOnce(failure);
    if (this.unauthorized && results.length > 0 && !failures.some(isRetryable)) this.resumeAuthorized();
    return { results, failures };
  }

  /** Emits `error` for a failure once, however many callers meet it. */
  private reportOnce(error: SyncError): void {
    if (this.reported.has(error)) return;
    this.reported.add(error);
    this.events.emit('error', { error, ...(error.typeId !== undefined ? { typeId: error.typeId } : {}) });
  }

  /** Reads each collection's type record and applies its `syncType`. */
  async refreshSyncTypes(): Promise<void> {
    this.lastTypeRefresh = this.timers.now();
    for (const typeId of this.collections.keys()) await this.refreshSyncType(typeId);
  }

  /**
   * Asks the server which of the locally held entities this caller may still read, and drops the
   * others (event `change` with reason `accessLost`). Done at start, every `accessCheckMs`, and
   * after a realtime `access-changed` notification; entities only created here are not asked about.
   */
  checkAccess(typeId?: string): Promise<void> {
    // Asked while a check runs, for any scope: that check may have passed this collection already
    // (or never covers it), so another round runs after it for what was asked meanwhile; every
    // caller's promise settles once its own scope was checked.
    const wanted = (this.accessWanted ??= { all: false, typeIds: new Set() });
    if (typeId === undefined) wanted.all = true;
    else wanted.typeIds.add(typeId);
    this.accessCheck ??= (async () => {
      try {
        await this.open();
        for (let round = this.accessWanted; round; round = this.accessWanted) {
          this.accessWanted = undefined;
          for (const collection of this.collections.values()) {
            if (collection.syncType === 'remote' && (round.all || round.typeIds.has(collection.options.typeId))) await this.checkCollectionAccess(collection);
          }
        }
      } finally {
        this.accessCheck = undefined;
      }
    })();
    return this.accessCheck;
  }

  private async checkCollectionAccess(collection: Collection): Promise<void> {
    const { typeId } = collection.options;
    const held = [...collection.records.values()].filter((record) => record.server && record.server.deletedAt === undefined);
    if (held.length === 0) return;
    const answer = await readableIds(this.http, `${this.dataPath(typeId)}/readable`, held.map((record) => record.id));
    if (!answer.ok) {
      if (answer.status === 404 && answer.code === PROJECT_NOT_FOUND) await this.loseProject();
      // The project answers, but the type is one this caller may no longer read (or it is gone): nothing of it is readable.
      if (answer.status === 404 && answer.code === TYPE_NOT_FOUND) return this.loseCollectionAccess(collection);
      if (isTransientStatus(answer.status)) throw new TransientError(answer.status, answer.retryAfterMs);
      throw new SyncError(`Access check of ${typeId}: ${answer.message}`, answer.status, answer.code);
    }
    const removed: SyncDocument[] = [];
    for (const record of held) {
      // Still held as checked: a pull or push meanwhile may have settled it another way.
      if (answer.readable.has(record.id) || collection.records.get(record.id) !== record) continue;
      collection.records.delete(record.id);
      await this.store.delete(entitiesStore(typeId), record.id);
      removed.push(record.server as SyncDocument);
      this.events.emit('state', { typeId, id: record.id, state: 'synced' });
    }
    if (removed.length > 0) this.events.emit('change', { typeId, added: [], modified: [], removed, reason: 'accessLost', source: 'remote' });
  }

  /**
   * The caller may no longer read the collection's type: every copy held from the server is dropped
   * (pending changes included, as for an entity whose read rule was lost) and reported as
   * `accessLost`; entities only created here stay. The cursor starts over, so that a pull after
   * access is given back brings everything again.
   */
  private async loseCollectionAccess(collection: Collection): Promise<void> {
    const { typeId } = collection.options;
    const removed: SyncDocument[] = [];
    for (const record of [...collection.records.values()]) {
      if (!record.server) continue;
      collection.records.delete(record.id);
      await this.store.delete(entitiesStore(typeId), record.id);
      if (record.server.deletedAt === undefined) removed.push(record.server);
      this.events.emit('state', { typeId, id: record.id, state: 'synced' });
    }
    await this.restartCursor(collection);
    if (removed.length > 0) this.events.emit('change', { typeId, added: [], modified: [], removed, reason: 'accessLost', source: 'remote' });
  }

  /** The next pull of the collection asks from the start (saved, so a restart does too); a pull under way does not move the cursor on. */
  private async restartCursor(collection: Collection): Promise<void> {
    collection.cursor = 0;
    collection.cursorEpoch += 1;
    await this.store.put(META, `cursor:${collection.options.typeId}`, 0);
  }

  private scheduleAccessCheck(ms = this.options.accessCheckMs ?? 300_000): void {
    if (!this.running || this.accessTimer !== undefined) return;
    this.accessTimer = this.timers.setTimeout(() => {
      this.accessTimer = undefined;
      if (!this.running || this.unauthorized || this.offline) return this.scheduleAccessCheck();
      this.checkAccess().then(
        () => this.scheduleAccessCheck(),
        (error: unknown) => {
          this.backgroundFailure(error);
          this.scheduleAccessCheck();
        },
      );
    }, ms);
  }

  /**
   * `access-changed`: check the collection it names; a type record's access (`typeId: 'types'`) may
   * concern any collection, so check them all. An event that names no entity's collection (the
   * caller's standing moved, or a type's access changed) may also have widened access: documents
   * become readable whose `updatedAt` lies behind the cursor. After the check every collection
   * pulls: one whose pulls carry the caller's standing starts over when it meets the new one
   * (`pullOnce`; an older gateway sent the event for any member's change, and the pull tells whether
   * this caller's moved); one without (an older server) and any after a type's access changed pull
   * from the start (pages as usual; local changes stay pending, as under any pull). One naming a
   * collection is sent only to members who lost read access to an entity of it (those who gain it
   * get the entity's own notification), so it pulls nothing.
   */
  private onAccessChanged(typeId: string | undefined): void {
    if (!this.running || this.unauthorized) return;
    const scope = typeId === TYPES ? undefined : typeId;
    if (scope !== undefined && !this.collections.has(scope)) return;
    this.timers.setTimeout(() => {
      if (!this.running) return;
      const checked = this.checkAccess(scope);
      if (scope !== undefined) return void checked.catch((error: unknown) => this.backgroundFailure(error));
      const standingKnown = [...this.collections.values()].every((collection) => collection.syncType !== 'remote' || collection.standing !== undefined);
      void checked
        .catch((error: unknown) => this.backgroundFailure(error))
        .then(() => this.pullAll({ fromStart: typeId === TYPES || !standingKnown }))
        .catch((error: unknown) => this.backgroundFailure(error));
    }, this.options.realtimeDebounceMs ?? 1_000);
  }

  /** The project answered 404: stop syncing it for good, report it, and purge the copy if asked to. */
  private async loseProject(): Promise<void> {
    if (this.lost) return;
    this.lost = true;
    const wasRunning = this.running;
    this.running = false;
    this.link?.stop();
    for (const handle of [this.pollTimer, this.pushRetry, this.authRetry, this.accessTimer]) if (handle !== undefined) this.timers.clearTimeout(handle);
    this.pollTimer = this.pushRetry = this.authRetry = this.accessTimer = undefined;
    const purged = this.options.purgeOnProjectLost === true;
    if (purged) {
      for (const collection of this.collections.values()) {
        collection.records.clear();
        collection.cursor = 0;
        collection.cursorEpoch += 1;
        await this.store.clear(entitiesStore(collection.options.typeId));
      }
      await this.store.clear(META);
    }
    this.events.emit('projectLost', { projectId: this.options.projectId, purged });
    if (wasRunning) this.status = 'stopped';
  }

  private projectLostError(): SyncError {
    return new SyncError(`Project ${this.options.projectId} not found: syncing it stopped`, 404, PROJECT_NOT_FOUND);
  }

  /** A failure of background work: retried, paused for a token, or reported as `error`. */
  private backgroundFailure(error: unknown): void {
    if (error instanceof UnauthorizedError) return this.pauseUnauthorized(error.code);
    if (error instanceof NetworkError || error instanceof TransientError) return this.schedulePush();
    if (error instanceof SyncError && error.code === PROJECT_NOT_FOUND) return;
    if (error instanceof SyncError) return this.reportOnce(error);
    this.events.emit('error', { error });
  }

  /** A 401: pause push, pull and realtime (the queue stays as it is), report it, and probe for a working token. */
  private pauseUnauthorized(code?: string): void {
    if (this.unauthorized || this.lost) return;
    this.unauthorized = true;
    for (const handle of [this.pollTimer, this.pushRetry]) if (handle !== undefined) this.timers.clearTimeout(handle);
    this.pollTimer = this.pushRetry = undefined;
    this.link?.stop();
    this.events.emit('unauthorized', { projectId: this.options.projectId, ...(code === undefined ? {} : { code }) });
    this.scheduleAuthProbe();
  }

  private scheduleAuthProbe(ms = this.authBackoff.next()): void {
    if (!this.running) return;
    if (this.authRetry !== undefined) this.timers.clearTimeout(this.authRetry);
    this.authRetry = this.timers.setTimeout(() => {
      this.authRetry = undefined;
      // Offline, the `online` event probes again.
      if (!this.running || !this.unauthorized || this.offline) return;
      this.sync().catch((error: unknown) => (isRetryable(error) ? this.scheduleAuthProbe() : this.backgroundFailure(error)));
    }, ms);
    if (this.options.keepProcessAlive && this.hasQueuedWork()) holdProcess(this.authRetry);
  }

  private resumeAuthorized(): void {
    this.unauthorized = false;
    this.authBackoff.reset();
    this.events.emit('authorized', { projectId: this.options.projectId });
    if (!this.running) return;
    if (this.link) this.link.start();
    else this.pollEvery(this.pollIntervalMs);
  }

  private dataPath(typeId: string): string {
    return `/api/projects/${encodeURIComponent(this.options.projectId)}/types/${encodeURIComponent(typeId)}/data`;
  }

  /**
   * Changes a collection's sync type. Back to `remote`, what was collected while `localOnly` is not
   * pushed: it is dropped (entities revert to the server's version or disappear), as the spec says.
   */
  async setSyncType(typeId: string, syncType: SyncType): Promise<void> {
    await this.open();
    const collection = this.require(typeId);
    if (collection.syncType === syncType) return;
    collection.syncType = syncType;
    await this.store.put(META, `syncType:${typeId}`, syncType);
    if (syncType === 'localOnly') return;
    const change: SyncTypeChange = { typeId, added: [], modified: [], removed: [], reason: 'syncType', source: 'local' };
    for (const record of [...collection.records.values()]) {
      if (!record.localOnly) continue;
      const shownBefore = visibleDocument(record);
      record.localOnly = undefined;
      if (record.server) {
        discardLocalChanges(record);
        await this.save(typeId, record);
      } else {
        collection.records.delete(record.id);
        await this.store.delete(entitiesStore(typeId), record.id);
      }
      this.events.emit('state', { typeId, id: record.id, state: collection.records.has(record.id) ? stateOf(record) : 'synced' });
      const shown = collection.records.has(record.id) ? visibleDocument(record) : undefined;
      if (shown) (shownBefore ? change.modified : change.added).push(shown);
      else if (shownBefore) change.removed.push(shownBefore);
    }
    if (change.added.length + change.modified.length + change.removed.length > 0) this.events.emit('change', change);
    if (this.running) this.schedulePush();
  }

  // ---- entity operations (used through SyncCollection) ----

  /** @internal */
  require(typeId: string): Collection {
    const collection = this.collections.get(typeId);
    if (!collection) throw new SyncError(`Collection ${typeId} is not configured on this client`);
    return collection;
  }

  /** @internal */
  async insertEntity(typeId: string, fields: Record<string, unknown>): Promise<LocalDocument> {
    await this.open();
    const collection = this.require(typeId);
    // `id` is the one server field an insert may choose.
    for (const field of Object.keys(fields)) if (field !== 'id') refuseFieldName(fieldNameProblem(field));
    const id: unknown = fields.id ?? (this.options.newId ?? (() => globalThis.crypto.randomUUID()))();
    // The id chosen, or the one `newId` made, must be one the server takes: said here by `insert`, not by a conflict after the push.
    if (!isEntityId(id)) throw new SyncError(`Id ${JSON.stringify(id)} is not one the server takes: ids hold 1 to 64 letters, digits, _ or -`, undefined, 'SYNC_INVALID_ID');
    const existing = collection.records.get(id);
    // Deleted, or deleted here after an insert that may have landed (its delete still to be confirmed).
    if (existing?.server?.deletedAt !== undefined || (existing?.deleted && mayExistOnServer(existing))) {
      throw new SyncError(`Entity ${id} in ${typeId} was deleted; a deleted entity's id is not reused: insert it under another id`);
    }
    if (existing && (existing.server || !existing.deleted)) throw new SyncError(`Entity ${id} already exists in ${typeId}`);
    // Checked whole first: copying a `__proto__` key into a new object would set its prototype instead.
    const local = fieldsOf(jsonWrite(fields));
    const record: EntityRecord = { id, local, deleted: false, touched: Object.keys(local), seq: 1, ...(collection.syncType === 'localOnly' ? { localOnly: true } : {}) };
    collection.records.set(id, record);
    // Not saved (the store failed): the copy is as it was.
    await this.changed(typeId, record, () => {
      if (collection.records.get(id) !== record) return;
      if (existing) collection.records.set(id, existing);
      else collection.records.delete(id);
    });
    const document = visibleDocument(record) as LocalDocument;
    this.events.emit('change', { typeId, added: [document], modified: [], removed: [], reason: 'write', source: 'local' });
    return document;
  }

  /** @internal */
  async updateEntity(typeId: string, id: string, changes: Record<string, unknown>): Promise<LocalDocument> {
    const record = await this.visibleRecord(typeId, id);
    // Every name first: a refused one leaves the record as it was, none of the others marked touched.
    for (const field of Object.keys(changes)) refuseFieldName(fieldNameProblem(field));
    const written = jsonWrite(changes, { removals: true });
    const before = { ...record, touched: [...record.touched] };
    const local = { ...record.local };
    for (const [field, value] of Object.entries(written)) {
      if (value === undefined) delete local[field];
      else local[field] = value;
      if (!record.touched.includes(field)) record.touched.push(field);
    }
    record.local = local;
    record.seq += 1;
    if (this.require(typeId).syncType === 'localOnly') record.localOnly = true;
    // Changing a document the server refused is the fix: it is pushed again.
    if (record.conflict?.reason === 'rejected') record.conflict = undefined;
    await this.changed(typeId, record, this.undoing(record, before));
    const document = visibleDocument(record) as LocalDocument;
    this.events.emit('change', { typeId, added: [], modified: [document], removed: [], reason: 'write', source: 'local' });
    return document;
  }

  /** @internal */
  async removeEntity(typeId: string, id: string): Promise<void> {
    if (this.options.tabs && !this.leadsTabs()) await this.readLeadersRecord(typeId, id);
    const record = await this.visibleRecord(typeId, id);
    const collection = this.require(typeId);
    const removed: LocalChange = { typeId, added: [], modified: [], removed: [visibleDocument(record) as LocalDocument], reason: 'write', source: 'local' };
    const before = { ...record, touched: [...record.touched] };
    record.seq += 1;
    // Never sent, the record goes at once. An insert sent (in flight, or its answer lost: it may
    // have landed) is followed by a delete; until then the deleted record keeps pulled versions away.
    if (!mayExistOnServer(record) && !this.inFlight.has(entityKey(typeId, id))) {
      collection.records.delete(id);
      try {
        await this.store.delete(entitiesStore(typeId), id);
      } catch (error) {
        if (!collection.records.has(id)) collection.records.set(id, record);
        this.undoing(record, before)();
        throw error;
      }
      this.events.emit('state', { typeId, id, state: 'synced' });
      this.events.emit('change', removed);
      return;
    }
    record.deleted = true;
    // Deleting is the user's latest word on the entity, and the server's DELETE takes no base
    // revision: a pending conflict is settled by it (left in place, the entity would vanish from
    // `list()` with its conflict unresolved and its newer server versions never shown). The
    // server's version it carried is kept as `newer`, for Accept Theirs should the delete be refused.
    const current = record.conflict?.current;
    if (current && (!record.newer || current.revision > record.newer.revision)) record.newer = current;
    record.conflict = undefined;
    if (collection.syncType === 'localOnly') record.localOnly = true;
    await this.changed(typeId, record, this.undoing(record, before));
    this.events.emit('change', removed);
  }

  /**
   * A following tab reads the record as the leader last stored it before deciding how to remove it:
   * the leader may have sent its insert (and saved that it did), and that tab's announcement may
   * not have arrived yet. A follower keeps nothing unsaved, so the stored record is its latest.
   */
  private async readLeadersRecord(typeId: string, id: string): Promise<void> {
    await this.open();
    const current = this.require(typeId).records.get(id);
    const stored = await this.store.get<EntityRecord>(entitiesStore(typeId), id);
    if (current && stored) replaceContents(current, stored);
  }

  /** Puts a record back as it was before a local write whose save failed, unless something changed it since. */
  private undoing(record: EntityRecord, before: EntityRecord): () => void {
    const seq = record.seq;
    return () => {
      if (record.seq === seq) replaceContents(record, before);
    };
  }

  /** @internal */
  get(typeId: string, id: string): LocalDocument | undefined {
    const record = this.require(typeId).records.get(id);
    return record ? visibleDocument(record) : undefined;
  }

  /** @internal */
  list(typeId: string): LocalDocument[] {
    const documents: LocalDocument[] = [];
    for (const record of this.require(typeId).records.values()) {
      const document = visibleDocument(record);
      if (document) documents.push(document);
    }
    return documents;
  }

  /** @internal */
  state(typeId: string, id: string): SyncState | undefined {
    const record = this.require(typeId).records.get(id);
    return record ? stateOf(record) : undefined;
  }

  /** @internal */
  conflict(typeId: string, id: string): SyncConflict | undefined {
    return this.require(typeId).records.get(id)?.conflict;
  }

  /** @internal */
  conflicts(typeId: string): Array<{ id: string; conflict: SyncConflict }> {
    const found: Array<{ id: string; conflict: SyncConflict }> = [];
    for (const record of this.require(typeId).records.values()) if (record.conflict) found.push({ id: record.id, conflict: record.conflict });
    return found;
  }

  /**
   * @internal How many entities of the collection wait for the server: queued writes (inserts,
   * updates and deletes, which `list()` no longer shows), those kept local by a localOnly type, and
   * those in conflict.
   */
  pendingCount(typeId: string): number {
    let count = 0;
    for (const record of this.require(typeId).records.values()) if (stateOf(record) !== 'synced') count += 1;
    return count;
  }

  /** @internal */
  changesAvailable(typeId: string): boolean {
    return this.require(typeId).changesAvailable;
  }

  /** @internal */
  async resolve(typeId: string, id: string, choose: (field: string) => FieldChoice, otherwise: FieldChoice = 'mine'): Promise<string> {
    await this.open();
    const collection = this.require(typeId);
    const record = collection.records.get(id);
    if (!record?.conflict) throw new SyncError(`Entity ${id} in ${typeId} has no conflict`);
    const { reason } = record.conflict;
    // A refused delete touched no field: `otherwise` says whether to keep it (Accept Theirs does not).
    const keepAll = record.touched.every((field) => choose(field) === 'mine') && (record.touched.length > 0 || otherwise === 'mine');
    // An insert whose id an entity this caller may not read holds: retrying it as is cannot pass.
    const idTaken = reason === 'rejected' && !record.server && record.conflict.error?.code === 'DATA_DUPLICATE_ID';
    if (reason === 'revision' && record.conflict.current?.deletedAt === undefined) {
      resolveRevisionConflict(record, choose);
    } else if (reason === 'rejected' && keepAll && !idTaken) {
      record.conflict = undefined;
    } else if ((reason === 'deletedOnServer' || idTaken) && keepAll && record.local) {
      // The id is taken for good (a deleted id cannot be reused, another's entity is not ours): keep mine as a new entity.
      const local = record.local;
      discardLocalChanges(record);
      if (record.server) await this.save(typeId, record);
      else {
        collection.records.delete(id);
        await this.store.delete(entitiesStore(typeId), id);
        this.events.emit('state', { typeId, id, state: 'synced' });
      }
      return (await this.insertEntity(typeId, local)).id;
    } else {
      discardLocalChanges(record);
      if (!record.server) {
        collection.records.delete(id);
        await this.store.delete(entitiesStore(typeId), id);
        this.events.emit('state', { typeId, id, state: 'synced' });
        return id;
      }
    }
    await this.changed(typeId, record);
    return id;
  }

  private async visibleRecord(typeId: string, id: string): Promise<EntityRecord> {
    await this.open();
    const record = this.require(typeId).records.get(id);
    if (!record || !visibleDocument(record)) throw new SyncError(`Entity ${id} not found in ${typeId}`);
    return record;
  }

  private async save(typeId: string, record: EntityRecord): Promise<void> {
    await this.store.put(entitiesStore(typeId), record.id, record);
  }

  /** Persists a locally changed record, reports its state and queues a push; `undo` puts the copy back when the save fails. */
  private async changed(typeId: string, record: EntityRecord, undo?: () => void): Promise<void> {
    try {
      await this.save(typeId, record);
    } catch (error) {
      undo?.();
      throw error;
    }
    this.events.emit('state', { typeId, id: record.id, state: stateOf(record) });
    if (this.running && pendingOperation(record)) this.schedulePush();
  }

  // ---- push ----

  /**
   * Pushes every queued change once; rejects when the server is unreachable (the queue stays), and
   * at once with OfflineError while the browser says it has no network.
   */
  push(): Promise<void> {
    const offline = this.offlineRefusal();
    if (offline) return Promise.reject(offline);
    if (this.pushing) {
      this.pushAgain = true;
      return joinUnderWay(this.pushing, () => this.pushing ?? this.startPush());
    }
    return this.startPush();
  }

  private startPush(): Promise<void> {
    this.pushing = (async () => {
      try {
        await this.open();
        if (this.lost) throw this.projectLostError();
        do {
          this.pushAgain = false;
          for (const collection of this.collections.values()) {
            if (collection.syncType !== 'remote') continue;
            const queue = [...collection.records.values()].flatMap((record) => {
              const operation = pendingOperation(record);
              return operation ? [{ record, operation, seq: record.seq }] : [];
            });
            const size = Math.min(this.options.pushBatchSize ?? PUSH_BATCH_MAX, PUSH_BATCH_MAX);
            const { batches, unsendable } = pushBatches(queue, size);
            for (const { write, error } of unsendable) await this.refuseUnsendable(collection, write, error);
            for (const batch of batches) await this.pushBatch(collection, batch);
          }
        } while (this.pushAgain);
      } finally {
        this.pushing = undefined;
      }
    })();
    return this.pushing;
  }

  /**
   * A queued write JSON cannot serialise (insert and update refuse such values, but a record an
   * older client stored, or one changed in place through a returned document, may hold one): a
   * `rejected` conflict with status 0 (refused by the client, nothing sent) and `SYNC_INVALID_VALUE`,
   * instead of an error that would stop every push of every collection.
   */
  private async refuseUnsendable(collection: Collection, { record }: QueuedWrite, error: unknown): Promise<void> {
    const message = `Not sent: a value JSON cannot carry (${error instanceof Error ? error.message : String(error)}); update the field, or accept theirs`;
    await this.storeConflict(collection.options.typeId, record, { reason: 'rejected', fields: [], error: { status: 0, code: INVALID_VALUE, message } });
  }

  /** Pushes in the background; a failure to reach the server retries with backoff. */
  private schedulePush(): void {
    if (this.pushRetry !== undefined || this.unauthorized || this.lost || this.offline) return;
    if (browserSaysOffline()) return this.goOffline();
    this.push().then(
      () => this.pushBackoff.reset(),
      (error: unknown) => {
        if (!(error instanceof NetworkError || error instanceof TransientError)) return this.backgroundFailure(error);
        if (!this.running || this.pushRetry !== undefined) return;
        this.pushRetry = this.timers.setTimeout(() => {
          this.pushRetry = undefined;
          this.schedulePush();
        }, retryDelay(error, this.pushBackoff));
        if (this.options.keepProcessAlive && this.hasQueuedWork()) holdProcess(this.pushRetry);
      },
    );
  }

  /**
   * Sends queued writes of one collection in one `POST .../data/bulk` and applies each result as
   * its single route's answer. Their records are saved together, so a FileStore confirms the batch
   * with one synchronized write. Rejects (the queue stays) when the server is unreachable or busy,
   * for the whole request or for some of its items. A batch of several writes the server refuses
   * as a whole, too large (413) or malformed (400: a key its JSON parser refuses, say), is split in
   * halves and each pushed on its own: only one write alone answered so is that write's refusal,
   * the others are not held back by it. A revision conflict answered without its details (the
   * server bounds an answer's conflict details) is sent again alone, where it gets them; a success
   * answered without its document (the server bounds an answer's documents too) is read back.
   */
  private async pushBatch(collection: Collection, batch: QueuedWrite[]): Promise<void> {
    const outcome = await this.sendBatch(collection, batch);
    if (outcome === 'split') {
      const half = Math.ceil(batch.length / 2);
      await this.pushBatch(collection, batch.slice(0, half));
      await this.pushBatch(collection, batch.slice(half));
      return;
    }
    for (const write of outcome) await this.pushBatch(collection, [write]);
  }

  /**
   * Sends one batch and applies its answers. `split` when the server refused the request of
   * several writes as a whole (413, 400), nothing applied; otherwise the writes to send again
   * alone (see pushAnswerOf), not applied either.
   */
  private async sendBatch(collection: Collection, batch: QueuedWrite[]): Promise<'split' | QueuedWrite[]> {
    const { typeId } = collection.options;
    const keys = batch.map(({ record }) => entityKey(typeId, record.id));
    for (const key of keys) this.inFlight.add(key);
    try {
      // Saved before the request leaves: after a restart, or in another tab, a delete of the entity
      // must still know that its insert may have landed, and push a DELETE.
      const remembered = batch.filter((write) => write.operation === 'insert' && rememberSentInsert(write.record));
      await Promise.all(remembered.map(({ record }) => this.save(typeId, record)));
      const answer = await this.http.request<{ results: Array<HttpAnswer<ErrorBody>> } & ErrorBody>('POST', `${this.dataPath(typeId)}/bulk`, { operations: batch.map(bulkOperation) });
      if (answer.status === 404 && answer.body?.code === PROJECT_NOT_FOUND) {
        await this.loseProject();
        throw this.projectLostError();
      }
      if (isTransientStatus(answer.status)) throw new TransientError(answer.status, answer.retryAfterMs);
      // One write may be the cause (its size, a key the body parser refuses): halves find it.
      if ((answer.status === 413 || answer.status === 400) && batch.length > 1) return 'split';
      // A refusal of the whole request (the type is gone, say) is every item's answer.
      const results = (answer.status === 200 ? answer.body.results : batch.map(() => answer)) as Array<HttpAnswer<ErrorBody>>;
      const sendAgain = new Set<QueuedWrite>();
      // Read-backs of omitted documents one at a time: hundreds at once would be the load the server's budget spared.
      let readBacks: Promise<unknown> = Promise.resolve();
      const outcomes = await Promise.allSettled(
        batch.map(async (write, index) => {
          const turn = readBacks.then(() => this.pushAnswerOf(typeId, write, results[index] as HttpAnswer<ErrorBody>));
          readBacks = turn.catch(() => undefined);
          const answer = await turn;
          if (answer) await this.applyPushAnswer(collection, write, answer);
          else sendAgain.add(write);
        }),
      );
      const failed = outcomes.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
      return batch.filter((write) => sendAgain.has(write));
    } finally {
      for (const key of keys) {
        this.inFlight.delete(key);
        const waiting = this.deferred.get(key);
        if (waiting) {
          this.deferred.delete(key);
          this.onNotification(waiting);
        }
      }
    }
  }

  /**
   * One write's bulk result as its single route answers it, or undefined when the write is to be
   * sent again alone: a conflict without its details, or a success without its document
   * (`bodyOmitted`, only its `id`, `revision`, `createdAt`, `updatedAt`, `deletedAt`) whose fields
   * cannot be read back. Such a success is applied all the same: its fields are those of its
   * revision (`GET .../{id}/revisions/{revision}`), whatever others wrote since. One no longer
   * readable is sent again alone, where it answers as a write whose answer was lost.
   */
  private async pushAnswerOf(typeId: string, { record, operation }: QueuedWrite, result: HttpAnswer<ErrorBody>): Promise<HttpAnswer<ErrorBody> | undefined> {
    if (result?.body?.details?.detailsOmitted === true) return undefined;
    if (result?.body?.bodyOmitted !== true) return result;
    const { bodyOmitted: _omitted, ...version } = result.body as ErrorBody & { revision: number };
    // A delete changes no field: its version on the fields this copy has is the deleted document.
    if (operation === 'delete') return { status: result.status, body: { ...fieldsOf(record.server ?? {}), ...version } };
    const fields = await this.fieldsAtRevision(typeId, record.id, version.revision);
    return fields && { status: result.status, body: { ...fields, ...version } };
  }

  /**
   * The entity's fields at `revision`: the entity itself while it is still at that revision (one
   * read), else that revision's state (which the server rebuilds from the history); undefined when
   * neither can be read.
   */
  private async fieldsAtRevision(typeId: string, id: string, revision: number): Promise<Record<string, unknown> | undefined> {
    const entityPath = `${this.dataPath(typeId)}/${encodeURIComponent(id)}`;
    const current = await this.readForPush<Record<string, unknown> & { revision?: number }>(entityPath);
    if (current.status === 200 && current.body?.revision === revision) return fieldsOf(current.body);
    const read = await this.readForPush<{ state?: Record<string, unknown> }>(`${entityPath}/revisions/${revision}`);
    return read.status === 200 && read.body?.state ? fieldsOf(read.body.state) : undefined;
  }

  /** One write's answer, as its single route gives it: accepted, retried later, merged, or a conflict. */
  private async applyPushAnswer(collection: Collection, write: QueuedWrite, answer: HttpAnswer<ErrorBody>): Promise<void> {
    const { record, operation, seq } = write;
    const { typeId } = collection.options;
    const entityPath = `${this.dataPath(typeId)}/${encodeURIComponent(record.id)}`;
    const code = answer.body?.code;
    if (this.options.tabs && !(await this.tookOtherTabsWrites(collection, write, answer))) return;
    // Dropped from the copy while the write was on the way (its access lost, the project's copy
    // purged): the answer is moot, and saving it would bring the record back into the store.
    if (collection.records.get(record.id) !== record) return;
    if (answer.status === 200 || answer.status === 201) {
      afterPush(record, serverDocument(answer.body as Record<string, unknown>), seq);
    } else if (isTransientStatus(answer.status)) {
      throw new TransientError(answer.status, answer.retryAfterMs);
    } else if (code === 'DATA_LOCAL_ONLY_TYPE') {
      await this.setSyncType(typeId, 'localOnly');
      return;
    } else if (operation === 'insert' && code === 'DATA_DUPLICATE_ID') {
      return this.settleDuplicateId(collection, record, entityPath, answer);
    } else if (operation === 'patch' && code === 'DATA_REVISION_CONFLICT') {
      const details = answer.body.details ?? {};
      const current = details.current ? serverDocument(details.current) : undefined;
      if (current && current.deletedAt === undefined && (this.mergesAutomatically(details.fields) || onlyOwnValues(details.fields))) return this.mergeDisjoint(typeId, record, current);
      return this.storeConflict(typeId, record, {
        reason: 'revision',
        current,
        baseRevision: details.baseRevision,
        currentRevision: details.currentRevision,
        fields: details.fields ?? [],
      });
    } else if (answer.status === 404 && operation === 'delete' && !record.server) {
      // The delete of an insert whose answer was lost: it had not landed, nothing left of it.
      if (collection.records.get(record.id) === record && record.seq === seq) {
        collection.records.delete(record.id);
        await this.store.delete(entitiesStore(typeId), record.id);
      }
      this.events.emit('state', { typeId, id: record.id, state: 'synced' });
      return;
    } else if (answer.status === 404 && operation === 'delete') {
      // Already deleted on the server: nothing left to do; the next pull brings its final version.
      record.local = undefined;
      record.deleted = false;
      record.server = { ...(record.server as SyncDocument), deletedAt: record.server?.deletedAt ?? this.timers.now() };
    } else if (answer.status === 404 && operation === 'patch') {
      return this.storeConflict(typeId, record, { reason: 'deletedOnServer', current: record.newer, fields: [], error: refusalOf(404, answer.body) });
    } else {
      return this.storeConflict(typeId, record, { reason: 'rejected', fields: [], error: refusalOf(answer.status, answer.body) });
    }
    await this.save(typeId, record);
    this.events.emit('state', { typeId, id: record.id, state: stateOf(record) });
  }

  /**
   * Tabs: another tab may have written the record while its write was on the way, and its
   * announcement may not have arrived yet. The stored record is the latest word: a newer one is
   * taken in place (the answer then keeps its changes queued, as for a write made here), so saving
   * the answer cannot overwrite it. A record another tab removed (it deleted a document whose
   * insert it could not know had been sent) is not brought back: when the insert landed, the
   * record stays as a delete to push; otherwise nothing is left to do. False when the answer is done with.
   */
  private async tookOtherTabsWrites(collection: Collection, { record, operation, seq }: QueuedWrite, answer: HttpAnswer<ErrorBody>): Promise<boolean> {
    const { typeId } = collection.options;
    const stored = await this.store.get<EntityRecord>(entitiesStore(typeId), record.id);
    const shownBefore = collection.records.get(record.id) === record ? visibleDocument(record) : undefined;
    if (stored) {
      if (stored.seq === record.seq) return true;
      replaceContents(record, stored);
      this.reportTabWrite(typeId, shownBefore, visibleDocument(record));
      return true;
    }
    if (operation !== 'insert' || (answer.status !== 200 && answer.status !== 201)) {
      if (collection.records.get(record.id) === record) collection.records.delete(record.id);
      this.reportTabWrite(typeId, shownBefore, undefined);
      return false;
    }
    afterPush(record, serverDocument(answer.body as Record<string, unknown>), seq);
    record.deleted = true;
    record.seq += 1;
    collection.records.set(record.id, record);
    await this.save(typeId, record);
    this.pushAgain = true;
    this.events.emit('state', { typeId, id: record.id, state: stateOf(record) });
    this.reportTabWrite(typeId, shownBefore, undefined);
    return false;
  }

  /** A document another tab changed, as this tab's views must show it (the tab's announcement, read early). */
  private reportTabWrite(typeId: string, before: LocalDocument | undefined, after: LocalDocument | undefined): void {
    const change = new TabChangeBuilder(typeId);
    change.add(before, after);
    if (!change.isEmpty) this.events.emit('change', change.change);
  }

  /**
   * An insert met 409 `DATA_DUPLICATE_ID`: some entity holds the id. It is this client's own
   * earlier insert (sent, then its answer lost) only when the entity's creation holds fields this
   * client sent for it: then the stored entity becomes the base, and changes others made since are
   * taken as a pull takes them (remaining local edits stay pending on the creation's revision, so
   * a concurrent edit still meets its 409). Anyone else's entity is never overwritten: a `revision`
   * conflict whose `current` is the stored entity; one this caller may not read (the GET answers
   * 404), a `rejected` conflict with the 409's error. A deleted entity's id makes it `deletedOnServer`.
   * A transient answer to the GETs keeps the insert queued (retried).
   */
  private async settleDuplicateId(collection: Collection, record: EntityRecord, entityPath: string, answer: HttpAnswer<ErrorBody>): Promise<void> {
    const { typeId } = collection.options;
    const error = refusalOf(answer.status, answer.body);
    const stored = await this.readForPush<Record<string, unknown>>(entityPath);
    if (stored.status !== 200) return this.storeConflict(typeId, record, { reason: 'rejected', fields: [], error });
    const server = serverDocument(stored.body);
    if (server.deletedAt !== undefined) {
      // The id is a deleted entity's, taken for good: this insert cannot land under it; the
      // application decides (Keep Mine inserts it under a new id, Accept Theirs drops it).
      record.server = server;
      return this.storeConflict(typeId, record, { reason: 'deletedOnServer', current: server, fields: [], error });
    }
    let created: SyncDocument | undefined = server;
    if (server.revision > 0) {
      const first = await this.readForPush<{ state?: Record<string, unknown> }>(`${entityPath}/revisions/0`);
      created = first.status === 200 && first.body?.state ? { ...fieldsOf(first.body.state), id: server.id, revision: 0, createdAt: server.createdAt, updatedAt: server.createdAt } : undefined;
    }
    const scope = { projectId: this.options.projectId, typeId };
    if (!created || !isOwnCreation(record, created, scope)) {
      const local = record.local ?? {};
      const fields = record.touched.map((path) => ({ path, theirs: server[path], mine: local[path], serverTouched: !deepEqual(server[path], local[path]) }));
      return this.storeConflict(typeId, record, { reason: 'revision', current: server, currentRevision: server.revision, fields, error });
    }
    // Ours. Changed by others since: their version is `newer`, as a pull would have left it.
    if (server.revision > 0 && (!record.newer || record.newer.revision < server.revision)) record.newer = server;
    afterPush(record, created, Number.NaN);
    // Edits made here since the insert was sent: a patch, sent by this push.
    if (pendingOperation(record)) this.pushAgain = true;
    await this.save(typeId, record);
    this.events.emit('state', { typeId, id: record.id, state: stateOf(record) });
    if (server.revision > 0 && record.server === server) this.events.emit('change', { typeId, added: [], modified: [server], removed: [], reason: 'pull', source: 'remote' });
  }

  /** A GET made to settle a pushed write's answer: a busy or unreachable server keeps the write queued. */
  private async readForPush<T>(path: string): Promise<HttpAnswer<T & ErrorBody>> {
    const answer = await this.http.request<T & ErrorBody>('GET', path);
    if (isTransientStatus(answer.status)) throw new TransientError(answer.status, answer.retryAfterMs);
    if (answer.status === 404 && answer.body?.code === PROJECT_NOT_FOUND) {
      await this.loseProject();
      throw this.projectLostError();
    }
    return answer;
  }

  /**
   * Whether a 409's fields may be merged: automatic policy, and every field the server touched
   * holds there what this client wrote (its own earlier write whose answer was lost, or the same
   * value written by someone else: nothing to choose between), the others untouched by the server.
   */
  private mergesAutomatically(fields: FieldConflict[] | undefined): boolean {
    return (this.options.mergePolicy ?? 'automatic') === 'automatic' && fields !== undefined && fields.length > 0 && fields.every((field) => !field.serverTouched || deepEqual(field.theirs, field.mine));
  }

  /**
   * Takes the server's current version as the base under the local edits and pushes them again;
   * fields that already hold the local value there are sent no more.
   */
  private async mergeDisjoint(typeId: string, record: EntityRecord, current: SyncDocument): Promise<void> {
    rebaseOnServer(record, current);
    await this.save(typeId, record);
    this.pushAgain = true;
    if (!pendingOperation(record)) this.events.emit('state', { typeId, id: record.id, state: stateOf(record) });
    this.events.emit('change', { typeId, added: [], modified: [current], removed: [], reason: 'merge', source: 'remote' });
  }

  private async storeConflict(typeId: string, record: EntityRecord, conflict: Omit<SyncConflict, 'at'>): Promise<void> {
    record.conflict = { ...conflict, at: this.timers.now() };
    await this.save(typeId, record);
    this.events.emit('state', { typeId, id: record.id, state: 'conflict' });
    this.events.emit('conflict', { typeId, id: record.id, conflict: record.conflict });
  }

  // ---- pull ----

  /**
   * Pulls every change after the largest `updatedAt` seen, following the server's pages, and
   * classifies what it applied as added, modified or removed. A localOnly collection pulls nothing.
   * Rejects at once with OfflineError while the browser says it has no network. Called while a pull
   * runs, it answers the pull that follows that one: the pull under way may have read its pages
   * (or fixed their range) before the change the call is about, such as a realtime notification's.
   * Every call made while one pull runs shares the one that follows it.
   */
  pull(typeId: string): Promise<PullResult> {
    const collection = this.require(typeId);
    const offline = this.offlineRefusal();
    if (offline) return Promise.reject(offline);
    if (!collection.pulling) return this.startPull(collection);
    const after = (): Promise<PullResult> => {
      collection.nextPull = undefined;
      return collection.pulling ?? this.startPull(collection);
    };
    collection.nextPull ??= collection.pulling.then(after, after);
    return collection.nextPull;
  }

  private startPull(collection: Collection): Promise<PullResult> {
    collection.pulling = this.pullOnce(collection).finally(() => {
      collection.pulling = undefined;
    });
    return collection.pulling;
  }

  private async pullOnce(collection: Collection): Promise<PullResult> {
    await this.open();
    const { typeId } = collection.options;
    if (this.lost) throw this.projectLostError();
    const result: PullResult = { typeId, added: [], modified: [], removed: [], reason: 'pull', source: 'remote' };
    if (collection.syncType === 'localOnly') return result;
    const path = this.dataPath(typeId);
    const since = collection.cursor;
    const epoch = collection.cursorEpoch;
    let largest = since;
    let page: string | undefined;
    const touched = new Map<string, EntityRecord>();
    // Each page is saved while the next one is fetched: saving 10,000 records only after the last
    // page made a first pull wait for all their store writes at the end.
    const saves: Array<Promise<void>> = [];
    let retryAfterMs: number | undefined;
    // The standing the first page was read under: the one the new cursor is reached under (a change
    // during the pull shows as a change at the next one).
    let standing: string | undefined;
    try {
      do {
        const query = `updatedAt=${since}&limit=${this.options.pageSize ?? 1000}${page ? `&cursor=${encodeURIComponent(page)}` : ''}`;
        const answer = await this.http.request<{ items: Array<Record<string, unknown>>; cursor?: string; retryAfterMs?: number; standing?: string } & ErrorBody>('GET', `${path}?${query}`);
        if (isTransientStatus(answer.status)) throw new TransientError(answer.status, answer.retryAfterMs);
        if (answer.status === 404 && answer.body?.code === PROJECT_NOT_FOUND) {
          await this.loseProject();
          throw this.projectLostError();
        }
        if (answer.status !== 200) throw new SyncError(`Pull of ${typeId}: ${answer.body?.error ?? `HTTP ${answer.status}`}`, answer.status, answer.body?.code, typeId);
        const pageRecords: EntityRecord[] = [];
        for (const item of answer.body.items) {
          const document = serverDocument(item);
          largest = Math.max(largest, document.updatedAt);
          const { record, classification } = applyPulled(collection.records.get(document.id), document);
          if (!record) continue;
          collection.records.set(record.id, record);
          touched.set(record.id, record);
          pageRecords.push(record);
          if (classification) result[classification].push(document);
        }
        saves.push(Promise.all(pageRecords.map((record) => this.save(typeId, record))).then(() => undefined));
        standing ??= typeof answer.body.standing === 'string' ? answer.body.standing : undefined;
        page = answer.body.cursor;
        retryAfterMs = answer.body.retryAfterMs;
      } while (page);
    } finally {
      // The cursor moves only once every page is stored; a failed page leaves the saves of the
      // earlier ones to settle (the next pull asks from the old cursor again).
      await Promise.allSettled(saves);
    }
    await Promise.all(saves);
    // The caller's standing moved since the cursor was reached (a permission given or taken, a role):
    // entities behind the cursor may have become readable without being written.
    const standingMoved = since > 0 && standing !== undefined && collection.standing !== undefined && standing !== collection.standing;
    // Started over meanwhile (access widened, or the type's access lost): the next pull asks from the start.
    if (collection.cursorEpoch === epoch) {
      if (standingMoved) await this.restartCursor(collection);
      else {
        collection.cursor = largest;
        await this.store.put(META, `cursor:${typeId}`, largest);
      }
      // After the cursor: a stop between the two leaves the older standing, and the next pull starts over.
      if (standing !== undefined && standing !== collection.standing) {
        collection.standing = standing;
        await this.store.put(META, `standing:${typeId}`, standing);
      }
    }
    if (collection.changesAvailable) {
      collection.changesAvailable = false;
      this.events.emit('changesAvailable', { typeId, available: false });
    }
    for (const record of touched.values()) this.events.emit('state', { typeId, id: record.id, state: stateOf(record) });
    if (result.added.length + result.modified.length + result.removed.length > 0) this.events.emit('change', result);
    if (typeof retryAfterMs === 'number') this.changesSettling(collection, retryAfterMs);
    if (!standingMoved) return result;
    // Access may have narrowed too: the copies held are asked about, then everything is pulled again.
    await this.checkAccess(typeId).catch((error: unknown) => this.backgroundFailure(error));
    const again = await this.pullOnce(collection);
    return { ...again, added: [...result.added, ...again.added], modified: [...result.modified, ...again.modified], removed: [...result.removed, ...again.removed] };
  }

  /**
   * The server wrote changes this pull could not read yet (still settling): a realtime collection
   * pulls again once they have, since a write made just before its first pull has no notification
   * to come. Another collection pulls when its owner asks; the settling change may be the client's
   * own write, so it is not announced as available.
   */
  private changesSettling(collection: Collection, retryAfterMs: number): void {
    if (!this.running || !collection.options.realtime || collection.pullTimer !== undefined) return;
    const { typeId } = collection.options;
    collection.pullTimer = this.timers.setTimeout(() => {
      collection.pullTimer = undefined;
      if (this.running) this.pull(typeId).catch((error: unknown) => this.backgroundFailure(error));
    }, Math.min(Math.max(retryAfterMs, 0), 10_000));
  }

  /**
   * Pulls every collection, each on its own; rejects with the first failure once all are done.
   * `fromStart`: each remote collection's cursor starts over and, after any pull under way (which
   * asked from the old cursor), it is pulled from the start.
   */
  private async pullAll({ fromStart = false }: { fromStart?: boolean } = {}): Promise<void> {
    const pullFromStart = async (collection: Collection): Promise<PullResult> => {
      await this.open();
      if (collection.syncType === 'remote') await this.restartCursor(collection);
      while (collection.pulling) await collection.pulling.catch(() => undefined);
      return this.pull(collection.options.typeId);
    };
    const outcomes = await Promise.allSettled([...this.collections.values()].map((collection) => (fromStart ? pullFromStart(collection) : this.pull(collection.options.typeId))));
    const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    for (const failure of failures) if (failure instanceof SyncError && failure.typeId !== undefined) this.reportOnce(failure);
    if (this.unauthorized && failures.length < outcomes.length && !failures.some(isRetryable)) this.resumeAuthorized();
    if (failures.length > 0) throw failures[0];
  }

  private async refreshSyncType(typeId: string): Promise<void> {
    const answer = await this.http.request<{ syncType?: SyncType }>('GET', `/api/projects/${encodeURIComponent(this.options.projectId)}/types/${encodeURIComponent(typeId)}`);
    if (answer.status !== 200) return;
    await this.setSyncType(typeId, answer.body.syncType === 'localOnly' ? 'localOnly' : 'remote');
  }

  // ---- realtime and polling ----

  private onRealtimeStatus(status: RealtimeStatus): void {
    // Offline, the stopped link's own reports do not count: the status stays `offline`.
    if (status === this.status || (this.offline && status !== 'offline')) return;
    this.status = status;
    this.events.emit('realtime', { status });
    if (status === 'polling') this.linkWasDown = true;
    if (!this.running || this.unauthorized || this.offline) return;
    if (status === 'live') this.pollEvery(this.heartbeatMs);
    else if (status === 'polling') this.pollEvery(this.pollIntervalMs);
    if (status === 'live' && this.linkWasDown) {
      // The stream is back after a break (a drop, a stall): the network is, so catch up at once.
      this.linkWasDown = false;
      this.online();
    }
  }

  private pollEvery(ms: number): void {
    if (this.pollTimer !== undefined) this.timers.clearTimeout(this.pollTimer);
    this.pollTimer = this.timers.setTimeout(async () => {
      this.pollTimer = undefined;
      if (!this.running || this.offline) return;
      if (browserSaysOffline()) return this.goOffline();
      if (this.timers.now() - this.lastTypeRefresh >= this.heartbeatMs) await this.refreshSyncTypes().catch(() => undefined);
      // A push still under way (or stuck until its timeout) does not hold back the next pulls.
      this.schedulePush();
      // A busy server's `Retry-After` holds the next poll back, when it asks for longer than the interval.
      let serverAskedMs = 0;
      await this.pullAll().catch((error: unknown) => {
        if (error instanceof TransientError) serverAskedMs = error.retryAfterMs ?? 0;
        this.backgroundFailure(error);
      });
      if (this.running && !this.unauthorized && this.pollTimer === undefined) this.pollEvery(Math.max(serverAskedMs, this.status === 'live' ? this.heartbeatMs : this.pollIntervalMs));
    }, ms);
  }

  /**
   * A remote change: ignored when this client already holds that revision (its own writes land
   * here, so notifications caused by this window are dropped), held while this client's own push
   * of the entity is in flight; otherwise a realtime collection pulls after a short debounce and
   * any other collection raises `changesAvailable`.
   */
  private onNotification(notification: SyncNotification): void {
    if (notification.projectId !== this.options.projectId || !this.running) return;
    if (notification.typeId === 'types' && this.collections.has(notification.entityId)) {
      void this.refreshSyncType(notification.entityId).catch(() => undefined);
      return;
    }
    const collection = this.collections.get(notification.typeId);
    if (!collection || collection.syncType === 'localOnly') return;
    const key = entityKey(notification.typeId, notification.entityId);
    if (this.inFlight.has(key)) {
      this.deferred.set(key, notification);
      return;
    }
    const record = collection.records.get(notification.entityId);
    const known = Math.max(record?.server?.revision ?? -1, record?.newer?.revision ?? -1);
    if (known >= notification.revision) return;
    if (collection.options.realtime) {
      if (collection.pullTimer !== undefined) return;
      collection.pullTimer = this.timers.setTimeout(() => {
        collection.pullTimer = undefined;
        this.pull(notification.typeId).catch((error: unknown) => this.backgroundFailure(error));
      }, this.options.realtimeDebounceMs ?? 1_000);
    } else if (!collection.changesAvailable) {
      collection.changesAvailable = true;
      this.events.emit('changesAvailable', { typeId: notification.typeId, available: true });
    }
  }
}

/**
 * A 409 whose every field holds on the server what this client wrote (`theirs` equals `mine`): the
 * client's own write whose answer was lost, say. Nothing to choose between, whatever the merge policy.
 */
function onlyOwnValues(fields: FieldConflict[] | undefined): boolean {
  return fields !== undefined && fields.length > 0 && fields.every((field) => deepEqual(field.theirs, field.mine));
}

/** A local document of a collection typed `T`: its fields and, once the server has it, the server-set ones. */
/** Makes `target` hold exactly `source`'s fields, keeping its identity. */
function replaceContents(target: EntityRecord, source: EntityRecord): void {
  for (const field of Object.keys(target) as Array<keyof EntityRecord>) if (!(field in source)) delete target[field];
  Object.assign(target, source);
}

export type CollectionDocument<T> = T & { id: string; revision?: number; createdAt?: number; updatedAt?: number };

/** One collection of a SyncClient: the application's view and its operations; `T` types its documents (unchecked at run time: the server validates). */
export class SyncCollection<T extends object = Record<string, unknown>> {
  constructor(
    private readonly client: SyncClient,
    readonly typeId: string,
  ) {}

  /** Adds an entity locally (id generated unless given) and queues its push. */
  insert(fields: T & { id?: string }): Promise<CollectionDocument<T>> {
    return this.client.insertEntity(this.typeId, fields as Record<string, unknown>) as Promise<CollectionDocument<T>>;
  }

  /** Changes top-level fields locally (`undefined` removes one) and queues a patch on the base revision. */
  update(id: string, changes: { [K in keyof T]?: T[K] | undefined }): Promise<CollectionDocument<T>> {
    return this.client.updateEntity(this.typeId, id, changes as Record<string, unknown>) as Promise<CollectionDocument<T>>;
  }

  /** Deletes locally and queues the (soft) delete. */
  remove(id: string): Promise<void> {
    return this.client.removeEntity(this.typeId, id);
  }

  get(id: string): CollectionDocument<T> | undefined {
    return this.client.get(this.typeId, id) as CollectionDocument<T> | undefined;
  }

  /** The visible (not deleted) entities of the local copy. */
  list(): Array<CollectionDocument<T>> {
    return this.client.list(this.typeId) as Array<CollectionDocument<T>>;
  }

  state(id: string): SyncState | undefined {
    return this.client.state(this.typeId, id);
  }

  conflict(id: string): SyncConflict | undefined {
    return this.client.conflict(this.typeId, id);
  }

  /** How many entities wait for the server: queued inserts, updates and deletes (a deleted one is no longer in `list()`), localOnly ones, and conflicts. */
  pendingCount(): number {
    return this.client.pendingCount(this.typeId);
  }

  /** Every entity in conflict, including one whose refused delete hides it from `list()`. */
  conflicts(): Array<{ id: string; conflict: SyncConflict }> {
    return this.client.conflicts(this.typeId);
  }

  /** Remote changes wait (only for collections not opted in to realtime); a pull clears it. */
  get changesAvailable(): boolean {
    return this.client.changesAvailable(this.typeId);
  }

  pull(): Promise<PullResult> {
    return this.client.pull(this.typeId);
  }

  /** Accept Theirs: drop the local changes, take the server's version. */
  async acceptTheirs(id: string): Promise<void> {
    await this.client.resolve(this.typeId, id, () => 'theirs', 'theirs');
  }

  /**
   * Keep Mine: re-push the local changes on the server's current revision. Answers the id that now
   * carries them: a new one when the entity was deleted on the server (a deleted id cannot be reused).
   */
  keepMine(id: string): Promise<string> {
    return this.client.resolve(this.typeId, id, () => 'mine');
  }

  /** Field by field: each touched field `mine` or `theirs` (unnamed fields keep mine, `toString` as any other: only the object's own keys count). */
  async resolveFields(id: string, choices: Record<string, FieldChoice>): Promise<void> {
    await this.client.resolve(this.typeId, id, (field) => (Object.hasOwn(choices, field) ? (choices[field] as FieldChoice) : 'mine'));
  }
}

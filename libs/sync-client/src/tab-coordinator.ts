/**
 * The part of the Web Locks API (`navigator.locks`) a `TabCoordinator` uses. A lock is held while
 * the callback's promise is pending, and the browser releases it when the tab goes away.
 */
export interface TabLocks {
  request(name: string, options: { ifAvailable: true }, callback: (lock: unknown) => Promise<void> | void): Promise<unknown>;
  request(name: string, callback: (lock: unknown) => Promise<void> | void): Promise<unknown>;
}

/** The part of `BroadcastChannel` a `TabCoordinator` uses. */
export interface TabChannel {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  close(): void;
}

/** A record of the shared store that another tab changed (`key` absent: the whole named store was cleared). */
export interface TabStoreChange {
  storeName: string;
  key?: string;
}

export interface TabCoordinatorOptions {
  /** Defaults to `navigator.locks`. */
  locks?: TabLocks;
  /** Defaults to `new BroadcastChannel(name)`. */
  openChannel?: (name: string) => TabChannel;
}

export type TabRole = 'leader' | 'follower';

const isStoreChange = (data: unknown): data is TabStoreChange =>
  typeof data === 'object' && data !== null && typeof (data as TabStoreChange).storeName === 'string' && ['string', 'undefined'].includes(typeof (data as TabStoreChange).key);

/** What one message carries: every change announced during one task. */
const isStoreChanges = (data: unknown): data is TabStoreChange[] => Array.isArray(data) && data.every(isStoreChange);

/**
 * Lets the tabs of one browser share one IndexedDB copy: the tab holding the Web Lock `name` is
 * the leader (the only one talking to the server), the others follow and take over, in the order
 * they asked, when it closes; every tab tells the others through a BroadcastChannel which records
 * it wrote, so their in-memory views stay current. Use `platform-sync:<database name>` as `name`.
 */
export class TabCoordinator {
  private readonly locks: TabLocks;
  private readonly channel: TabChannel;
  private releaseLock: (() => void) | undefined;
  private readonly released = new Promise<void>((resolve) => (this.releaseLock = resolve));
  private closed = false;
  /** Changes announced in the current task, sent as one message once it ends. */
  private unsent: TabStoreChange[] | undefined;

  constructor(
    readonly name: string,
    options: TabCoordinatorOptions = {},
  ) {
    const locks = options.locks ?? (globalThis.navigator as { locks?: TabLocks } | undefined)?.locks;
    if (!locks) throw new Error('TabCoordinator needs the Web Locks API (navigator.locks) or a `locks` option');
    this.locks = locks;
    this.channel = (options.openChannel ?? ((channelName) => new BroadcastChannel(channelName) as TabChannel))(name);
  }

  /**
   * Leads at once if no other tab does (resolves `leader`); otherwise resolves `follower` and calls
   * `onLeader` once this tab's turn comes. Either way the lock is held until `close()`.
   */
  claim(onLeader: () => Promise<void> | void): Promise<TabRole> {
    return new Promise<TabRole>((resolve, reject) => {
      this.locks
        .request(this.name, { ifAvailable: true }, async (lock) => {
          if (!lock || this.closed) return resolve('follower');
          resolve('leader');
          await this.released;
        })
        .catch(reject);
    }).then((role) => {
      if (role === 'follower' && !this.closed) {
        void this.locks.request(this.name, async () => {
          if (this.closed) return;
          await onLeader();
          await this.released;
        });
      }
      return role;
    });
  }

  /**
   * Tells the other tabs that a record of the shared store changed. The changes of one task go in
   * one message: a committed page of a pull is thousands of records, and a message each cost more
   * than storing them.
   */
  announce(change: TabStoreChange): void {
    if (this.closed) return;
    if (!this.unsent) {
      const unsent: TabStoreChange[] = [];
      this.unsent = unsent;
      queueMicrotask(() => {
        if (this.unsent !== unsent) return;
        this.unsent = undefined;
        if (!this.closed) this.channel.postMessage(unsent);
      });
    }
    this.unsent.push(change);
  }

  /** Calls `listener` for every change another tab announces, in the order it announced them. */
  listen(listener: (change: TabStoreChange) => void): void {
    this.channel.addEventListener('message', ({ data }) => {
      if (this.closed || !isStoreChanges(data)) return;
      for (const change of data) listener(change);
    });
  }

  /** Gives up the lead (the next tab in line takes over) and stops listening; what was announced goes first. */
  close(): void {
    if (this.unsent && !this.closed) this.channel.postMessage(this.unsent);
    this.unsent = undefined;
    this.closed = true;
    this.releaseLock?.();
    this.channel.close();
  }
}

import type { EventBus, Subscription } from '@platform/bus';
import type { Principal } from '@platform/contracts';
import { ACCESS_CHANGED_ALL_SUBJECT, ACCESS_CHANGED_PROJECT_FILTER, rlsAllows, standingDigest, type Logger, type ProjectAccess } from '@platform/kit';
import { SYNC_BROADCAST_FILTER, type AccessChangedNotification, type RoutedSyncNotification, type SyncNotification } from './sync-notification';

/** One open subscription of `project:{projectId}:sync` on this replica. */
export interface SyncSubscriber {
  projectId: string;
  principal: Principal;
  /**
   * The digest of the member's standing its client was last told of (at open, then with each
   * project-level `access-changed`): a notice that leaves it as it was changes nothing the member
   * may read, so the stream is not told.
   */
  standing: string;
  send(notification: SyncNotification): void;
  sendAccessChanged(change: AccessChangedNotification): void;
  /** Ends the subscription (the caller is no longer a member of the project). */
  close(): void;
}

/** Everything of a principal that ProjectAccess's answer depends on: the user, platform ownership and an access token's projects. */
function standingKey(principal: Principal): string {
  if (principal.kind !== 'user') return principal.kind;
  return JSON.stringify([principal.userId, principal.platformOwner, principal.projectIds ?? null]);
}

/** Notifications about the project's types carry this `typeId` (the types collection). */
const TYPES_TYPE_ID = 'types';

/**
 * This replica's subscribers, fed by the live broadcast every replica listens to. Before each
 * delivery the subscriber's standing in the project is looked up again (ProjectAccess caches it for
 * a second; once per caller per notification, however many streams it holds), so a member learns only of entities it may read (by the entity's read rule and its
 * type's), and a removed member is cut off.
 * A change of access (identity's notices about membership and permissions, or a write of an
 * entity's `access` the subscriber can no longer read) reaches members as `access-changed`.
 */
export class SyncHub {
  private readonly byProject = new Map<string, Set<SyncSubscriber>>();
  private listeners: Subscription[] = [];

  constructor(private readonly options: { bus: EventBus; projects: ProjectAccess; logger: Logger }) {}

  async start(): Promise<void> {
    const failed = (error: unknown) => this.options.logger.warn({ err: error }, 'sync notification delivery failed');
    this.listeners = [
      await this.options.bus.listen<RoutedSyncNotification>(SYNC_BROADCAST_FILTER, (message) => void this.deliver(message.data).catch(failed)),
      await this.options.bus.listen<{ projectId: string }>(ACCESS_CHANGED_PROJECT_FILTER, (message) => void this.accessChanged([message.data.projectId]).catch(failed)),
      await this.options.bus.listen(ACCESS_CHANGED_ALL_SUBJECT, () => void this.accessChanged([...this.byProject.keys()]).catch(failed)),
    ];
  }

  async stop(): Promise<void> {
    await Promise.allSettled(this.listeners.map((listener) => listener.stop()));
    this.listeners = [];
    for (const subscribers of this.byProject.values()) for (const subscriber of subscribers) subscriber.close();
    this.byProject.clear();
  }

  /** Registers a subscriber; answers the function that removes it. */
  add(subscriber: SyncSubscriber): () => void {
    const subscribers = this.byProject.get(subscriber.projectId) ?? new Set<SyncSubscriber>();
    subscribers.add(subscriber);
    this.byProject.set(subscriber.projectId, subscribers);
    return () => {
      subscribers.delete(subscriber);
      if (subscribers.size === 0 && this.byProject.get(subscriber.projectId) === subscribers) this.byProject.delete(subscriber.projectId);
    };
  }

  get size(): number {
    let count = 0;
    for (const subscribers of this.byProject.values()) count += subscribers.size;
    return count;
  }

  private async deliver({ notification, access, accessChanged }: RoutedSyncNotification): Promise<void> {
    // A type's access guards its documents: a written type's cached rule is forgotten before anyone is told.
    if (notification.typeId === TYPES_TYPE_ID) this.options.projects.types.forget(notification.projectId);
    const subscribers = this.byProject.get(notification.projectId);
    if (!subscribers) return;
    // One lookup per caller for this notification, however many streams it has open: the answer
    // depends only on what the key holds, and every lookup of one notification runs at once anyway.
    // `hidden`: the type's own read rule keeps the caller out, so the type is unknown to it (as its 404 says) and nothing of it is told.
    const readableBy = new Map<string, Promise<'read' | 'unreadable' | 'hidden' | 'lost'>>();
    const readable = (principal: Principal) => {
      const key = standingKey(principal);
      let answer = readableBy.get(key);
      if (!answer) {
        answer = (async () => {
          const standing = await this.options.projects.require(notification.projectId, principal).catch(() => null);
          if (!standing) return 'lost';
          if (!(await this.options.projects.types.mayRead(notification.projectId, notification.typeId, standing.caller))) return 'hidden';
          return rlsAllows(access, 'read', standing.caller) ? 'read' : 'unreadable';
        })();
        readableBy.set(key, answer);
      }
      return answer;
    };
    await Promise.all(
      [...subscribers].map(async (subscriber) => {
        const answer = await readable(subscriber.principal);
        if (answer === 'lost') return subscriber.close();
        if (answer === 'read') subscriber.send(notification);
        else if (answer === 'unreadable' && accessChanged) subscriber.sendAccessChanged({ projectId: notification.projectId, typeId: notification.typeId });
      }),
    );
  }

  /**
   * Members' standing may have changed: removed members are cut off, those whose standing moved
   * told to check what they may read. A notice reaches every replica for any member's change; the
   * members it left as they were hear nothing (their clients would check every copy they hold).
   */
  private async accessChanged(projectIds: string[]): Promise<void> {
    await Promise.all(
      projectIds.map(async (projectId) => {
        // This process may not have forgotten its cached standing yet (the same notice).
        this.options.projects.forget(projectId);
        const standings = new Map<string, Promise<string | null>>();
        await Promise.all(
          [...(this.byProject.get(projectId) ?? [])].map(async (subscriber) => {
            const key = standingKey(subscriber.principal);
            if (!standings.has(key)) {
              const looked = this.options.projects.require(projectId, subscriber.principal).then(({ caller }) => standingDigest(caller));
              standings.set(key, looked.catch(() => null));
            }
            const standing = await standings.get(key);
            if (!standing) return subscriber.close();
            if (standing === subscriber.standing) return;
            subscriber.standing = standing;
            subscriber.sendAccessChanged({ projectId });
          }),
        );
      }),
    );
  }
}

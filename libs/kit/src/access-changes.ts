import type { EventBus, Subscription } from '@platform/bus';
import type { AccessRevocationState } from '@platform/contracts';
import type { DocumentStore } from '@platform/storage';
import type { Logger } from 'pino';
import { ProjectAccess } from './project-access';

/** Live broadcast subjects (outside `platform.>`, so JetStream stores nothing); the realtime hub listens too. */
const PROJECT_SUBJECT = 'access.changed.project';
export const ACCESS_CHANGED_PROJECT_FILTER = `${PROJECT_SUBJECT}.*`;
export const ACCESS_CHANGED_ALL_SUBJECT = 'access.changed.all';

/** What changed: one project's standing, or possibly every project's (a tenant's admins). */
export type AccessChange = { projectId: string } | { everything: true };

/**
 * Carries access changes between processes: `announce` forgets the answers this process cached
 * (synchronously, before the change is answered) and broadcasts the change; `follow` makes this
 * process forget what other processes announce. With the in-process bus every service shares one
 * ProjectAccess and the broadcast reaches no one new; in the microservice shape it reaches every
 * replica of every service in milliseconds. While the bus is down a notice can be missed: cached
 * answers then still expire on their own (ProjectAccess's cacheMs), the bound /api/health names.
 */
export class AccessChanges {
  private subscriptions: Subscription[] = [];

  constructor(
    private readonly bus: EventBus,
    private readonly access: ProjectAccess,
    private readonly logger: Logger,
  ) {}

  /** Whether this process listens for other processes' notices (with the bus up, they arrive). */
  get following(): boolean {
    return this.subscriptions.length > 0;
  }

  /** How changes reach this process now (shown by /api/health): notices while it follows a live bus, else the expiry. */
  revocation(busUp: boolean): AccessRevocationState {
    return { by: busUp && this.following ? 'notices' : 'expiry', expiryMs: this.access.cacheMs };
  }

  async announce(change: AccessChange): Promise<void> {
    this.forget(change);
    try {
      if ('projectId' in change) await this.bus.broadcast(`${PROJECT_SUBJECT}.${change.projectId}`, { projectId: change.projectId });
      else await this.bus.broadcast(ACCESS_CHANGED_ALL_SUBJECT, {});
    } catch (error) {
      // Other processes fall back to their cache expiry; the change itself is stored.
      this.logger.warn({ err: error, change }, 'access change not broadcast; other processes rely on cache expiry');
    }
  }

  async follow(): Promise<void> {
    this.subscriptions = [
      await this.bus.listen<{ projectId: string }>(ACCESS_CHANGED_PROJECT_FILTER, (message) => this.access.forget(message.data.projectId)),
      await this.bus.listen(ACCESS_CHANGED_ALL_SUBJECT, () => this.access.forgetAll()),
    ];
  }

  async stop(): Promise<void> {
    await Promise.allSettled(this.subscriptions.map((subscription) => subscription.stop()));
    this.subscriptions = [];
  }

  private forget(change: AccessChange): void {
    if ('projectId' in change) this.access.forget(change.projectId);
    else this.access.forgetAll();
  }
}

/** One process's ProjectAccess and the AccessChanges that keep it current (call `follow` once started). */
export function sharedProjectAccess(adapters: { store: DocumentStore; bus: EventBus; clock: () => number; logger: Logger; cacheMs?: number }): {
  projectAccess: ProjectAccess;
  accessChanges: AccessChanges;
} {
  const projectAccess = new ProjectAccess(adapters.store, adapters.clock, adapters.cacheMs);
  return { projectAccess, accessChanges: new AccessChanges(adapters.bus, projectAccess, adapters.logger) };
}

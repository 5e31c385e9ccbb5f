import { randomUUID } from 'node:crypto';
import type { EventBus } from '@platform/bus';
import { membershipChangeMessageId, membershipChangeSchema, membershipChangeSubject, type MembershipChange, type ProjectMember } from '@platform/contracts';
import type { Clock, Logger } from '@platform/kit';
import type { Collection, DocumentStore } from '@platform/storage';

/** Changes made but not published yet: the request that made them publishes them, or the sweep does. */
export const MEMBERSHIP_OUTBOX_COLLECTION = 'identity-membership-changes';

/** Older than this, a change still waiting was not published by its own request (the bus was down, the process stopped). */
const SWEEP_AGE_MS = 10_000;
const SWEEP_EVERY_MS = 30_000;
const SWEEP_BATCH = 500;

type Pending = MembershipChange & { [field: string]: unknown };

/** A change as the code that made it describes it; its id and time are given here. */
export type MembershipChangeInput = Omit<MembershipChange, 'id' | 'timestamp'>;

/**
 * Tells the audit trail of every change of a project membership (contracts' MembershipChange).
 * Each change is written to an outbox collection right after the membership changes and then
 * published; a change the bus did not take stays there, and a sweep on every replica publishes it
 * later (the message id makes a second publish of the same change a no-op on the bus, the item id
 * in the trail). So a change is recorded even when NATS is down for a while; only a process that
 * stops between the membership's write and the outbox's loses one.
 */
export class MembershipChanges {
  private readonly outbox: Collection<Pending>;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: { store: DocumentStore; bus: EventBus; clock: Clock; logger: Logger }) {
    this.outbox = deps.store.collection<Pending>(MEMBERSHIP_OUTBOX_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.outbox.ensureIndex({ keys: { timestamp: 1 } });
  }

  /** Records the changes just made and publishes them. Changes that change nothing are left out by the caller. */
  async announce(changes: MembershipChangeInput[]): Promise<void> {
    if (changes.length === 0) return;
    const timestamp = this.deps.clock();
    const made: Pending[] = changes.map((change) => ({ ...change, id: randomUUID(), timestamp }));
    try {
      await this.outbox.insertMany(made);
    } catch (error) {
      // The membership has changed already: publishing without the outbox's second chance beats not at all.
      this.deps.logger.error({ err: error }, 'membership changes not written to the outbox; publishing them once');
    }
    await this.publish(made);
  }

  /** Publishes the changes their requests left behind; answers how many were waiting. */
  async sweep(): Promise<number> {
    const waiting = await this.outbox.find({ timestamp: { $lte: this.deps.clock() - SWEEP_AGE_MS } }, { sort: { timestamp: 1, id: 1 }, limit: SWEEP_BATCH });
    await this.publish(waiting);
    return waiting.length;
  }

  start(everyMs = SWEEP_EVERY_MS): void {
    this.timer = setInterval(() => {
      this.sweep().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'membership changes sweep failed; trying again'));
    }, everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** In order; the first the bus refuses stops the rest, which wait for the sweep. */
  private async publish(changes: Pending[]): Promise<void> {
    for (const pending of changes) {
      const change = membershipChangeSchema.parse(pending);
      try {
        await this.deps.bus.publish(membershipChangeSubject(change.projectId), change, { msgId: membershipChangeMessageId(change.id) });
      } catch (error) {
        this.deps.logger.warn({ err: error, projectId: change.projectId, waiting: changes.length }, 'membership changes not published yet; the sweep sends them');
        return;
      }
      // Left behind, it is only published once more: the bus and the trail drop the repeat.
      await this.outbox.deleteMany({ id: change.id }).catch((error: unknown) => this.deps.logger.warn({ err: error }, 'a published membership change stays in the outbox'));
    }
  }
}

function samePermissions(a: readonly string[], b: readonly string[]): boolean {
  const held = new Set(a);
  return held.size === new Set(b).size && b.every((permission) => held.has(permission));
}

/** The change a `putMember` made: none when the permissions stayed the same. */
export function membershipPut(member: ProjectMember, previousPermissions: string[] | undefined, changedBy: string): MembershipChangeInput[] {
  const { projectId, userId, permissions } = member;
  if (previousPermissions === undefined) return [{ projectId, userId, change: 'added', permissions, changedBy }];
  if (samePermissions(previousPermissions, permissions)) return [];
  return [{ projectId, userId, change: 'permissionsChanged', permissions, previousPermissions, changedBy }];
}

/** A membership that ended (removed, left, or its account deleted). */
export function membershipEnded(member: ProjectMember, changedBy: string): MembershipChangeInput {
  return { projectId: member.projectId, userId: member.userId, change: 'removed', permissions: [], previousPermissions: member.permissions, changedBy };
}

import type { EventBus } from '@platform/bus';
import { projectPurgeMessageId, projectPurgeSubject, type ProjectPurge } from '@platform/contracts';
import type { Clock, EventOutbox, Logger } from '@platform/kit';
import type { EmailInvitationRepository } from '../invitations/email-invitation-repository';
import type { InvitationRepository } from '../invitations/invitation-repository';
import type { ProjectRepository } from './project-repository';

/** Hourly, on one replica (kit's ClusterSchedule): a project goes within an hour of its restore period's end. */
export const PROJECT_PURGE_SCHEDULE = { name: 'project purge', lockPrefix: 'identity:project-purge', cron: '0 * * * *' } as const;

/** Projects one run purges at most; the next run takes the rest. */
const PURGE_BATCH = 100;

export interface PurgeResult {
  purged: number;
}

/**
 * Purges deleted projects whose restore period has ended: drops identity's events about the
 * project still waiting in its outbox, tells every service to erase its share
 * (`platform.projects.<id>.purge`, see ProjectPurge), then erases identity's own (invitations,
 * memberships) and marks the project purged. The mark goes last, so a run cut short anywhere
 * announces the project again next time; every erasure is idempotent.
 */
export class ProjectPurgeJob {
  constructor(
    private readonly deps: {
      bus: EventBus;
      clock: Clock;
      logger: Logger;
      projects: ProjectRepository;
      invitations: InvitationRepository;
      emailInvitations: EmailInvitationRepository;
      outbox: EventOutbox;
      projectRestorePeriodMs: number;
    },
  ) {}

  async run(): Promise<PurgeResult> {
    const { bus, clock, logger, projects, invitations, emailInvitations, outbox, projectRestorePeriodMs } = this.deps;
    const due = await projects.dueForPurge(clock() - projectRestorePeriodMs, PURGE_BATCH);
    for (const project of due) {
      const purge: ProjectPurge = { projectId: project.id, deletedAt: project.deletedAt! };
      // Before the message: an outbox sweep after it could still send an event the audit trail's erasure has passed.
      const waitingEvents = await outbox.eraseProject(project.id);
      const { handled } = await bus.publish(projectPurgeSubject(project.id), purge, { msgId: projectPurgeMessageId(project.id) });
      // The in-process bus holds it only in memory: marked purged before every service erased its
      // share, a stop in between would never announce it again. JetStream's stream keeps it.
      await handled;
      const erased = {
        invitations: await invitations.eraseProject(project.id),
        invitationLinks: await emailInvitations.eraseProject(project.id),
        waitingEvents,
        memberships: await projects.markPurged(project.id),
      };
      logger.info({ projectId: project.id, erased }, 'identity: purged project erased');
    }
    return { purged: due.length };
  }
}

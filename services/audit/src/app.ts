import type { Subscription } from '@platform/bus';
import { History } from '@platform/documents';
import { ClusterSchedule, erasePurgedProjects, type ServiceContext, type ServiceDefinition } from '@platform/kit';
import { loadAuditConfig } from './config';
import { startAccountDeletionsConsumer } from './consumers/account-deletions';
import { startActionChangesConsumer } from './consumers/action-changes';
import { startDocumentEventsConsumer, type TrailRecorder } from './consumers/document-events';
import { startDomainChangesConsumer } from './consumers/domain-changes';
import { startMembershipChangesConsumer } from './consumers/membership-changes';
import { startProjectChangesConsumer } from './consumers/project-changes';
import { registerAuditTrailRoute } from './routes/audit-trail';
import { registerAuditTrailExportRoute } from './routes/audit-trail-export';
import { AuthorNames } from './trail/author-names';
import { markEarlierErasures } from './trail/earlier-erasures';
import { Names } from './trail/names';
import { TRAIL_RETENTION_SCHEDULE, TrailRetentionJob } from './trail/trail-retention';
import { TrailStore } from './trail/trail-store';

/**
 * Subscriptions this process runs on the shared durable. Items of one entity may be recorded
 * concurrently (the trail store is built for it). Each event waits for its trail write to reach
 * the disk, a turn or two of a busy event loop, so a subscription records only a few hundred
 * events a second under load: with 4, the trail fell behind a sustained all-in-one PATCH load and
 * its backlog (held in memory) grew without bound (BENCHMARKS.md, Documents).
 */
const CONSUMER_CONCURRENCY = 32;

export function trailRecorder(context: ServiceContext): TrailRecorder {
  const history = new History(context.store);
  return { trail: new TrailStore(context.store), names: new Names(context.store, history), history };
}

/** The audit service: records every document change and serves the project audit trail. */
export const auditService: ServiceDefinition = {
  name: 'audit',
  routes: async (app, context) => {
    const routeDeps = { projects: context.projectAccess, trail: new TrailStore(context.store), authorNames: new AuthorNames(context.store) };
    registerAuditTrailRoute(app, routeDeps);
    registerAuditTrailExportRoute(app, routeDeps);
  },
  start: async (context) => {
    const config = loadAuditConfig();
    const recorder = trailRecorder(context);
    await recorder.trail.ensureIndexes();
    // Before the consumers: erasures an earlier version recorded leave no visitor's name behind.
    await markEarlierErasures({ store: context.store, trail: recorder.trail, clock: context.clock, logger: context.logger }).catch((error: unknown) =>
      context.logger.warn({ err: error }, 'erasures recorded by an earlier version could not be marked; the next start tries again'),
    );
    const retention = config.retentionMs === undefined ? undefined : await startTrailRetention(context, recorder.trail, config.retentionMs, config.retentionCheckMs);
    const subscriptions: Subscription[] = [];
    for (let n = 0; n < CONSUMER_CONCURRENCY; n += 1) subscriptions.push(await startDocumentEventsConsumer(context, recorder));
    subscriptions.push(await startAccountDeletionsConsumer(context, recorder.trail));
    subscriptions.push(await startMembershipChangesConsumer(context, recorder.trail));
    subscriptions.push(await startActionChangesConsumer(context, recorder.trail, recorder.names));
    subscriptions.push(await startDomainChangesConsumer(context, recorder.trail, recorder.names));
    subscriptions.push(await startProjectChangesConsumer(context, recorder.trail, recorder.names));
    subscriptions.push(await erasePurgedProjects(context.bus, 'audit', (projectId) => recorder.trail.eraseProject(projectId), context.logger));
    return async () => {
      retention?.stop();
      await Promise.all(subscriptions.map((subscription) => subscription.stop()));
    };
  },
};

/** AUDIT_RETENTION_DAYS set: the hourly removal of older items, on one replica at a time. */
async function startTrailRetention(context: ServiceContext, trail: TrailStore, retentionMs: number, checkMs: number): Promise<ClusterSchedule<object>> {
  await trail.ensureRetentionIndex();
  const job = new TrailRetentionJob({ trail, clock: context.clock, logger: context.logger, retentionMs });
  const schedule = new ClusterSchedule(job, context.kv, context.clock, context.logger, TRAIL_RETENTION_SCHEDULE);
  schedule.start(checkMs);
  return schedule;
}

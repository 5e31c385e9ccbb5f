import { whileWorking, type EventBus, type Subscription } from '@platform/bus';
import { PROJECT_PURGE_FILTER, type ProjectPurge } from '@platform/contracts';
import type { Logger } from './logger';

/** What one service erased of a purged project, by kind of record (for the log). */
export type ErasedCounts = Record<string, number>;

/**
 * Erases a service's share of every purged project (see ProjectPurge): one durable per service,
 * which its replicas share, so each purge is handled once per service. `erase` must be idempotent:
 * a redelivered message runs it again.
 */
export function erasePurgedProjects(bus: EventBus, service: string, erase: (projectId: string) => Promise<ErasedCounts>, logger: Logger): Promise<Subscription> {
  return bus.subscribe<ProjectPurge>({
    durable: `${service}-project-purge`,
    filter: PROJECT_PURGE_FILTER,
    handler: async (message) => {
      const { data } = message;
      // A large project's erasure can outlast the ack wait.
      const erased = await whileWorking(message, () => erase(data.projectId));
      logger.info({ projectId: data.projectId, erased }, `${service}: purged project erased`);
    },
  });
}

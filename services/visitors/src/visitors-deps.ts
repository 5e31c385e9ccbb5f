import { dataDeps } from '@platform/documents';
import type { ServiceContext } from '@platform/kit';
import { CheckInDirectory } from './check-in/check-in-directory';
import type { VisitorsConfig } from './config';
import { RetentionJob } from './retention/retention-job';
import { RetentionLedger } from './retention/retention-ledger';
import type { VisitorsDeps } from './routes/context';
import { DailyWriteQuota } from './visitors/daily-write-quota';
import { RateLimiter } from './visitors/rate-limiter';
import { VisitorRecords } from './visitors/visitor-records';
import { VisitorSecrets } from './visitors/visitor-secrets';

const depsByContext = new WeakMap<ServiceContext, VisitorsDeps & { retention: RetentionJob }>();

/** The visitors service's collaborators for a context: one set shared by its routes and jobs. */
export function visitorsDeps(context: ServiceContext, config: VisitorsConfig): VisitorsDeps & { retention: RetentionJob } {
  const existing = depsByContext.get(context);
  if (existing) return existing;
  const data = dataDeps(context);
  const ledger = new RetentionLedger(context.store);
  const secrets = new VisitorSecrets(context.store);
  const deps = {
    data,
    clock: context.clock,
    checkIns: new CheckInDirectory(context.store, context.clock),
    records: new VisitorRecords(data),
    secrets,
    ledger,
    rateLimiter: new RateLimiter(context.kv, config.rateLimit, context.clock, context.logger),
    publicMaxDataBytes: config.publicWrites.maxDataBytes,
    writeQuota: new DailyWriteQuota(context.kv, config.publicWrites.perKioskPerDay, context.clock, context.logger),
    retention: new RetentionJob(data, ledger, secrets, context.clock, context.logger),
  };
  depsByContext.set(context, deps);
  return deps;
}

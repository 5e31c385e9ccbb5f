import type { DataDeps } from '@platform/documents';
import type { CheckInDirectory } from '../check-in/check-in-directory';
import type { RetentionLedger } from '../retention/retention-ledger';
import type { DailyWriteQuota } from '../visitors/daily-write-quota';
import type { RateLimiter } from '../visitors/rate-limiter';
import type { VisitorRecords } from '../visitors/visitor-records';
import type { VisitorSecrets } from '../visitors/visitor-secrets';

/** What the visitor routes share: one instance of each per service context. */
export interface VisitorsDeps {
  data: DataDeps;
  clock: () => number;
  checkIns: CheckInDirectory;
  records: VisitorRecords;
  secrets: VisitorSecrets;
  ledger: RetentionLedger;
  rateLimiter: RateLimiter;
  /** JSON bytes a public caller may store in one visitor record or event. */
  publicMaxDataBytes: number;
  writeQuota: DailyWriteQuota;
}

import { randomBytes } from 'node:crypto';
import { describeWithBackends } from '@platform/testkit';
import { sharedBackendsEnvironment } from './testing/shared-backends';
import { describeRetentionInAuditTrail } from './testing/visitors-retention-audit-suite';

// The microservice shape's backends: the erasure event and the audit consumer over JetStream, the
// trail in MongoDB (a database, NATS namespace and key prefix of its own: test files share the servers).
describeWithBackends(['mongo', 'nats', 'redis'], 'visitor retention in the audit trail on MongoDB, NATS and Redis', (backends) => {
  describeRetentionInAuditTrail('visitor retention in the audit trail, on the real backends', sharedBackendsEnvironment(backends, `retention_${randomBytes(4).toString('hex')}`));
});

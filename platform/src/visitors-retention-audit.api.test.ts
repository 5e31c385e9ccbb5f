import { describeRetentionInAuditTrail } from './testing/visitors-retention-audit-suite';

// The erasure reaches the trail over the all-in-one's in-process bus.
describeRetentionInAuditTrail('visitor retention in the audit trail, all-in-one');

import { randomBytes } from 'node:crypto';
import { describeWithBackend } from '@platform/testkit';
import { describeProjectPurge } from './testing/project-purge-suite';

// The purge message and every service's erasing durable over JetStream (a namespace of its own:
// test files share one NATS server).
describeWithBackend('nats', 'project purge on NATS', ({ url }) => {
  describeProjectPurge('purging deleted projects, all-in-one on NATS', { NATS_URL: url, NATS_NAMESPACE: `purge${randomBytes(4).toString('hex')}` });
});

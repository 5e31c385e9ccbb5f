import { describeWithBackend } from '@platform/testkit';
import { runDocumentStoreContract } from '../contract';
import { temporaryMongoStore } from '../testing/temporary-stores';

describeWithBackend('mongo', 'MongoDB adapter', ({ url }) => {
  runDocumentStoreContract('mongodb', () => temporaryMongoStore(url, 'contract'));
});

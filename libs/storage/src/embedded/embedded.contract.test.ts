import { runDocumentStoreContract } from '../contract';
import { temporaryEmbeddedStore } from '../testing/temporary-stores';

runDocumentStoreContract('embedded', () => temporaryEmbeddedStore('embedded-contract'));

import { runKeyValueContract } from './contract';
import { createMemoryKeyValue } from './memory';

runKeyValueContract('memory', async () => createMemoryKeyValue());

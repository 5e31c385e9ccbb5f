import { randomUUID } from 'node:crypto';
import { describeWithBackend } from '@platform/testkit';
import { MongoClient } from 'mongodb';
import { runDocumentStoreContract } from '../contract';
import { createMongoStore } from './mongo-store';

describeWithBackend('mongo', 'MongoDB adapter', ({ url }) => {
  runDocumentStoreContract('mongodb', async () => {
    const database = `contract_${randomUUID().slice(0, 8)}`;
    const store = await createMongoStore({ url, database });
    return {
      store,
      dispose: async () => {
        await store.close();
        const client = await MongoClient.connect(url);
        await client.db(database).dropDatabase();
        await client.close();
      },
    };
  });
});

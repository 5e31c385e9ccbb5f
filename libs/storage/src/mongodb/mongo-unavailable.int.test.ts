import { describeWithOwnServer } from '@platform/testkit';
import { expect, it } from 'vitest';
import { DuplicateKeyError, StoreUnavailableError } from '../port';
import { createMongoStore } from './mongo-store';

describeWithOwnServer('mongo', 'MongoDB adapter while the server is down', (server) => {
  it('reports every operation as StoreUnavailableError while it is down, and works again after the restart', async () => {
    const store = await createMongoStore({ url: server().url, database: 'unavailable_test', serverSelectionTimeoutMs: 500 });
    try {
      const notes = store.collection<{ id: string; title: string }>('notes');
      await notes.insertOne({ id: 'n1', title: 'before' });

      await server().stop({ kill: true });
      const operations: Array<[string, () => Promise<unknown>]> = [
        ['insertOne', () => notes.insertOne({ id: 'n2', title: 'while down' })],
        ['findById', () => notes.findById('n1')],
        ['count', () => notes.count()],
        ['updateOne', () => notes.updateOne({ id: 'n1' }, { $set: { title: 'while down' } })],
        ['updateMany', () => notes.updateMany({}, { $set: { title: 'while down' } })],
        ['deleteMany', () => notes.deleteMany({ id: 'n1' })],
      ];
      for (const [name, operation] of operations) {
        await expect(operation(), name).rejects.toBeInstanceOf(StoreUnavailableError);
      }

      await server().restart();
      expect(await notes.findById('n1')).toMatchObject({ title: 'before' });
      await expect(notes.insertOne({ id: 'n1', title: 'again' })).rejects.toBeInstanceOf(DuplicateKeyError);
    } finally {
      await store.close();
    }
  }, 60_000);
});

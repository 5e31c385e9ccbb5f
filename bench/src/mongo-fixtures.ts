import { documentsCollection } from '@platform/data';
import { createMongoStore } from '@platform/storage';

/**
 * Writes documents straight into MongoDB as the data service stores new ones (revision 0, no
 * pending outbox, no history): the MongoDB-compatible test server takes tens of milliseconds per
 * sequential write and stalls under concurrent ones, and fixtures are not what is measured. Their stamps
 * end a minute before now, one millisecond apart, because a pull on MongoDB answers only changes
 * older than its settle margin.
 */
export async function insertNewDocuments(mongoUrl: string, database: string, projectId: string, typeId: string, documents: Array<{ id: string } & Record<string, unknown>>): Promise<void> {
  const store = await createMongoStore({ url: mongoUrl, database });
  try {
    const start = Date.now() - 60_000 - documents.length;
    const stored = documents.map((fields, index) => ({ ...fields, revision: 0, createdAt: start + index, updatedAt: start + index }));
    await store.collection(documentsCollection(projectId, typeId)).insertMany(stored);
  } finally {
    await store.close();
  }
}

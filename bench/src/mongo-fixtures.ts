import { documentsCollection } from '@platform/documents';
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

/**
 * Marks the domain with this hostname verified in MongoDB, as `POST .../verify` does after its
 * DNS check: the microservice shape runs with NODE_ENV=production, where verification cannot be
 * switched off, and the benchmark's hostname has no DNS record.
 */
export async function markDomainVerified(mongoUrl: string, database: string, hostname: string): Promise<void> {
  const store = await createMongoStore({ url: mongoUrl, database });
  try {
    const now = Date.now();
    const verified = await store.collection('project-domains').updateOne({ hostname }, { $set: { verifiedAt: now, updatedAt: now }, $unset: { verificationToken: '', verificationExpiresAt: '' }, $inc: { revision: 1 } });
    if (!verified) throw new Error(`no domain ${hostname} to mark verified`);
  } finally {
    await store.close();
  }
}

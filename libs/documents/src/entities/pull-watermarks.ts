import { DuplicateKeyError, type DocumentStore, type StoredDocument } from '@platform/storage';

const COLLECTION = 'pull-watermarks';

interface WatermarkRecord extends StoredDocument {
  until: number;
}

/**
 * Per entity collection, the largest `until` any pull on the shared store has read up to. A pull
 * raises it before it reads; a writer reads it after its write is stored. Single-document
 * operations on MongoDB are atomic and ordered, so either the pull read after the write (and saw
 * it) or the writer sees the raised mark and restamps above it (see EntityWriter). That holds
 * whatever the write's delay and the replicas' clocks, where the settle margin alone (see
 * UpdatedAtClock) fails for a write stored over a second after its last stamp.
 */
export class PullWatermarks {
  constructor(private readonly store: DocumentStore) {}

  async raise(collection: string, until: number): Promise<void> {
    const marks = this.store.collection<WatermarkRecord>(COLLECTION);
    try {
      await marks.updateOne({ id: collection }, { $max: { until } }, { upsert: true });
    } catch (error) {
      // Two first pulls racing: MongoDB lets only one upsert insert; the other finds the record now.
      if (!(error instanceof DuplicateKeyError)) throw error;
      await marks.updateOne({ id: collection }, { $max: { until } });
    }
  }

  /** The collection's mark; no pull yet: -1, below every stamp. */
  async of(collection: string): Promise<number> {
    return (await this.store.collection<WatermarkRecord>(COLLECTION).findById(collection))?.until ?? -1;
  }
}

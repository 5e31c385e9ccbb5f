import { randomBytes } from 'node:crypto';
import { DuplicateKeyError, type DocumentStore, type StoredDocument } from '@platform/storage';

/** The service's own keys; one row, the takeover key. */
export const PUBLISHING_KEYS_COLLECTION = 'publishing-keys';
const TAKEOVER_KEY_ID = 'domain-takeover';

interface StoredKey extends StoredDocument {
  secret: string;
}

/**
 * The secret takeover tokens are derived from (domain/takeover.ts). Made on first use and kept in
 * the store, so every replica and every restart derives the same tokens without configuration.
 */
export class TakeoverKeyStore {
  private loaded: Promise<Buffer> | undefined;

  constructor(private readonly store: DocumentStore) {}

  key(): Promise<Buffer> {
    this.loaded ??= this.load().catch((error: unknown) => {
      // A failed read is tried again by the next request rather than kept.
      this.loaded = undefined;
      throw error;
    });
    return this.loaded;
  }

  private async load(): Promise<Buffer> {
    const keys = this.store.collection<StoredKey>(PUBLISHING_KEYS_COLLECTION);
    try {
      await keys.insertOne({ id: TAKEOVER_KEY_ID, secret: randomBytes(32).toString('base64url') });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    // The first insert of any replica wins; every replica uses the key stored.
    const stored = await keys.findById(TAKEOVER_KEY_ID);
    if (!stored) throw new Error(`${PUBLISHING_KEYS_COLLECTION}/${TAKEOVER_KEY_ID} vanished after it was written`);
    return Buffer.from(stored.secret, 'base64url');
  }
}

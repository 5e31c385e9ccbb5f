import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DocumentStore, StoreSection, StoredDocument } from '@platform/storage';

const COLLECTION = 'visitor-secrets';

interface SecretRecord extends StoredDocument {
  hash: string;
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/**
 * The per-visitor secret a kiosk gets at creation and shows again to read or change that one
 * visitor. Only its SHA-256 is stored, outside the visitor document, so it never appears in the
 * record, its history or its events.
 */
export class VisitorSecrets {
  constructor(private readonly store: DocumentStore) {}

  private key(collection: string, visitorId: string): string {
    return `${collection}/${visitorId}`;
  }

  /** Stores a new secret's hash (through `section`, an atomic section's store, when given) and answers the secret. */
  async issue(collection: string, visitorId: string, section: StoreSection = this.store): Promise<string> {
    const secret = randomBytes(24).toString('base64url');
    await section.collection<SecretRecord>(COLLECTION).insertOne({ id: this.key(collection, visitorId), hash: digest(secret).toString('hex') });
    return secret;
  }

  async verify(collection: string, visitorId: string, secret: string | undefined): Promise<boolean> {
    if (!secret) return false;
    const record = await this.store.collection<SecretRecord>(COLLECTION).findById(this.key(collection, visitorId));
    if (!record) return false;
    return timingSafeEqual(Buffer.from(record.hash, 'hex'), digest(secret));
  }

  /** Revokes the secrets of visitors known by their `collection/visitorId` keys (a purged project's); answers how many there were. */
  async revokeAll(keys: string[]): Promise<number> {
    return keys.length === 0 ? 0 : this.store.collection(COLLECTION).deleteMany({ id: { $in: keys } });
  }

  async revoke(collection: string, visitorId: string): Promise<void> {
    await this.store.collection(COLLECTION).deleteMany({ id: this.key(collection, visitorId) });
  }
}

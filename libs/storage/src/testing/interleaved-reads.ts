import type { Collection, DocumentStore, StoredDocument } from '../port';
import { wrappedCollections } from '../wrapped-store';

/** A store whose next matching read by id lets something else happen before it answers. */
export interface InterleavedReads {
  store: DocumentStore;
  /** `meanwhile` runs once, right after the next `findById` that `matches`, before that read answers. */
  afterNextRead(meanwhile: () => Promise<void>): void;
}

/**
 * `store` for tests of races: another request lands between a request's read of a document and
 * its write. Only `findById` outside atomic sections is watched, so a write's own reads stay as
 * they are.
 */
export function interleavedReads(store: DocumentStore, matches: (collection: string, id: string) => boolean): InterleavedReads {
  let pending: (() => Promise<void>) | undefined;
  const interleaved = Object.create(store) as DocumentStore;
  interleaved.collection = wrappedCollections(store, (collection: Collection<StoredDocument>) =>
    Object.assign(Object.create(collection) as Collection<StoredDocument>, {
      findById: async (...args: Parameters<Collection<StoredDocument>['findById']>) => {
        const found = await collection.findById(...args);
        const meanwhile = pending;
        if (meanwhile && found && matches(collection.name, found.id)) {
          pending = undefined;
          await meanwhile();
        }
        return found;
      },
    }),
  );
  return { store: interleaved, afterNextRead: (meanwhile) => void (pending = meanwhile) };
}

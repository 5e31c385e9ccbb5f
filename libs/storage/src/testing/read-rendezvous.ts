import type { Collection, DocumentStore, Filter, StoredDocument } from '../port';
import { wrappedCollections } from '../wrapped-store';

/** A store whose next few matching reads wait for one another. */
export interface ReadRendezvous {
  store: DocumentStore;
  /** The next `parties` reads (`find` or `count`) whose filter `matches` answer only once all of them have read. */
  next(parties: number, matches: (collection: string, filter: Filter) => boolean): void;
}

interface Meeting {
  parties: number;
  matches: (collection: string, filter: Filter) => boolean;
  arrived: Array<() => void>;
}

/**
 * `store` for tests of races between requests that decide on a read and then write: each of the
 * meeting reads is made, then held until the others have been made too, so every request decides
 * on what was stored before any of them wrote, however the requests are scheduled. Reads inside
 * atomic sections are not watched.
 */
export function readRendezvous(store: DocumentStore): ReadRendezvous {
  let meeting: Meeting | undefined;
  async function meet(collection: string, filter: Filter): Promise<void> {
    const current = meeting;
    if (!current?.matches(collection, filter)) return;
    await new Promise<void>((resolve) => {
      current.arrived.push(resolve);
      if (current.arrived.length < current.parties) return;
      meeting = undefined;
      for (const release of current.arrived) release();
    });
  }
  const wrapped = Object.create(store) as DocumentStore;
  wrapped.collection = wrappedCollections(store, (collection: Collection<StoredDocument>) =>
    Object.assign(Object.create(collection) as Collection<StoredDocument>, {
      find: async (...args: Parameters<Collection<StoredDocument>['find']>) => {
        const found = await collection.find(...args);
        await meet(collection.name, args[0]);
        return found;
      },
      count: async (...args: Parameters<Collection<StoredDocument>['count']>) => {
        const counted = await collection.count(...args);
        await meet(collection.name, args[0] ?? {});
        return counted;
      },
    }),
  );
  return { store: wrapped, next: (parties, matches) => void (meeting = { parties, matches, arrived: [] }) };
}

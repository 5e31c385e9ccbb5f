import type { StoredDocument } from '../port';
import type { EmbeddedCollection } from './embedded-collection';

/**
 * The log lines that rebuild `collections`. Every collection's indexes and documents are taken at
 * this call, which the store's log makes at an instant with no atomic section open; only their
 * JSON is made later, as the lines are read, which is safe because stored documents are never
 * changed, only replaced. Taken at the first read instead (a generator not yet started), a
 * snapshot missed that instant: a section opened while the copy's file was being opened reached
 * the copy half-written. The JSON is made for the copy and not kept (StoredJson).
 */
export function snapshotLines(collections: Iterable<[string, EmbeddedCollection<StoredDocument>]>): Iterable<string> {
  const taken = [...collections].filter(([, collection]) => !collection.isEmpty).map(([name, collection]) => ({ prefix: `{"c":${JSON.stringify(name)},`, collection, ...collection.snapshot() }));
  return {
    *[Symbol.iterator]() {
      for (const { prefix, collection, indexes, documents } of taken) {
        for (const index of indexes) yield `${prefix}"index":${JSON.stringify(index)}}`;
        for (const document of documents) yield `${prefix}"put":${collection.jsonOf(document)}}`;
      }
    },
  };
}

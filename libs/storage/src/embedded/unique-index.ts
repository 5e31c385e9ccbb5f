import { DuplicateKeyError, type IndexSpec, type StoredDocument } from '../port';
import { valueAt } from './sort-documents';

/** A unique index of an embedded collection: which document holds each key. */
export interface UniqueIndex {
  spec: IndexSpec;
  /** The index's keys as JSON: followed by a key, it names that key to the log (UniqueKeyChange). */
  name: string;
  /** Index key (the indexed values, JSON) to the id of the document holding it. */
  owners: Map<string, string>;
}

/** Two documents a replayed log left holding one key of a unique index. */
export interface KeyClash {
  key: string;
  /** The document written later in the log: it holds the key. */
  kept: string;
  other: string;
}

/** Like MongoDB, a missing field is indexed as null, so two documents without it clash. */
export function indexKey(spec: IndexSpec, document: Record<string, unknown>): string {
  return JSON.stringify(Object.keys(spec.keys).map((path) => valueAt(document, path.split('.')) ?? null));
}

export function duplicateKey(collection: string, spec: IndexSpec, key: string): DuplicateKeyError {
  return new DuplicateKeyError(collection, `${Object.keys(spec.keys).join(', ')}: ${key}`);
}

function emptyIndex(spec: IndexSpec): UniqueIndex {
  return { spec, name: JSON.stringify(spec.keys), owners: new Map() };
}

/** The index over `documents`; a key two of them hold is a DuplicateKeyError. */
export function buildUniqueIndex(collection: string, spec: IndexSpec, documents: Iterable<StoredDocument>): UniqueIndex {
  const index = emptyIndex(spec);
  for (const document of documents) {
    const key = indexKey(spec, document);
    if (index.owners.has(key)) throw duplicateKey(collection, spec, key);
    index.owners.set(key, document.id);
  }
  return index;
}

/**
 * The index over the documents a log replayed to. A log can hold two documents with one key (a
 * crash after a write took a key that an atomic section's unwritten line gave up, in a version
 * that did not join the two; a unique index declared while such a section was open), and
 * refusing to open would make the store unopenable. So the document written later in the log
 * (`writtenAt`, its last write's position) holds the key, each clash goes to `clashed`, and the
 * other document stays without it: a write keeping the key is refused as a duplicate, and
 * changing or deleting it frees nothing (releaseKey).
 */
export function replayUniqueIndex(spec: IndexSpec, documents: Iterable<StoredDocument>, writtenAt: (id: string) => number, clashed: (clash: KeyClash) => void): UniqueIndex {
  const index = emptyIndex(spec);
  for (const document of documents) {
    const key = indexKey(spec, document);
    const holder = index.owners.get(key);
    if (holder === undefined) {
      index.owners.set(key, document.id);
      continue;
    }
    const [kept, other] = writtenAt(document.id) > writtenAt(holder) ? [document.id, holder] : [holder, document.id];
    index.owners.set(key, kept);
    clashed({ key, kept, other });
  }
  return index;
}

/** Gives up `document`'s key `key` if it holds it (one a replay left without its key holds none): whether it did. */
export function releaseKey(index: UniqueIndex, document: StoredDocument, key: string): boolean {
  if (index.owners.get(key) !== document.id) return false;
  index.owners.delete(key);
  return true;
}

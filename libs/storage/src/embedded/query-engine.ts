import { Query } from 'mingo';
import type { Filter } from '../port';

/** The query engine's options for stored documents, whose key is `id`. */
export const QUERY_OPTIONS = { idKey: 'id' } as const;

/** A compiled filter: whether one stored document matches it. */
export interface DocumentTest {
  test(document: Record<string, unknown>): boolean;
}

/** The query engine's test of `filter`: every shape MongoDB's filters have, at its cost. */
export function engineTest(filter: Filter): DocumentTest {
  return new Query(filter, QUERY_OPTIONS);
}

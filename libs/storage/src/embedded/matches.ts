import type { Filter, StoredDocument } from '../port';
import { engineTest, type DocumentTest } from './query-engine';
import { simpleFilter } from './simple-filter';

/**
 * Collects the documents a read offers that pass its filter, up to a limit. The filter is
 * compiled at the first offer, so a read whose candidates are none never compiles it.
 */
export class Matches<T extends StoredDocument> {
  readonly found: T[] = [];
  private query: DocumentTest | null | undefined;

  constructor(
    private readonly filter: Filter,
    private readonly limit: number | undefined,
  ) {}

  /** Takes `document` if it passes; answers true once the limit is reached, which ends the read. */
  offer(document: T): boolean {
    if (this.query === undefined) this.query = compile(this.filter);
    if (this.query && !this.query.test(document)) return false;
    this.found.push(document);
    return this.limit !== undefined && this.found.length >= this.limit;
  }
}

/** The filter's test; null when every document passes. */
function compile(filter: Filter): DocumentTest | null {
  if (Object.keys(filter).length === 0) return null;
  return simpleFilter(filter) ?? engineTest(filter);
}

/**
 * The JSON of one collection's stored documents. The text a write makes for its log line stays
 * with the document while it is stored: the next update's no-change test compares against it, and
 * an atomic section's line and `findWithin` reuse it, so a write serializes its document once
 * (issue 26, BENCHMARKS.md). Any other text is made when asked for and dropped: a snapshot
 * (compaction, backup) that kept the text of every document it serialized doubled the heap for
 * good. A document read from the log keeps only its length, once measured.
 * Stored documents are never changed, only replaced, so what is kept stays true.
 */
export class StoredJson<T extends object> {
  private readonly written = new WeakMap<T, string>();
  private readonly measured = new WeakMap<T, number>();

  /** Keeps `json`, the text a write made for `document`'s log line. */
  keep(document: T, json: string): void {
    this.written.set(document, json);
  }

  /** The document's JSON: the text kept for it, or made now and not kept. */
  of(document: T): string {
    return this.written.get(document) ?? JSON.stringify(document);
  }

  /** The document's JSON length: of the text kept for it, or measured once (the length is kept, not the text). */
  lengthOf(document: T): number {
    const length = this.written.get(document)?.length ?? this.measured.get(document);
    if (length !== undefined) return length;
    const counted = JSON.stringify(document).length;
    this.measured.set(document, counted);
    return counted;
  }

  /** Whether the text of `document` is kept: only for one a write of this process stored. */
  keeps(document: T): boolean {
    return this.written.has(document);
  }
}

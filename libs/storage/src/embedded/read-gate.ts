import { StoreUnavailableError } from '../port';

/**
 * Holds reads back while the embedded store brings memory back to what its log holds (after the
 * log failed, memory may hold writes the disk does not), and refuses them when it could not.
 * Open until then: every read checks one field.
 */
export class ReadGate {
  /** Reads must wait for `pass` (or be refused by it); false on the healthy path. */
  closed = false;
  private reloading: Promise<void> | undefined;
  private failure: Error | undefined;

  /** Reads wait until `reload` settles: they go on once it did, and are refused for good if it failed. */
  holdFor(reload: Promise<void>): void {
    this.closed = true;
    this.reloading = reload.then(
      () => {
        this.closed = false;
      },
      (error: unknown) => {
        this.failure = error instanceof Error ? error : new Error(String(error));
      },
    );
  }

  /** Resolves once a read of `collection` may go on; throws StoreUnavailableError when reads are refused. */
  async pass(collection: string): Promise<void> {
    await this.reloading;
    if (this.failure) throw new StoreUnavailableError(collection, this.failure);
  }
}

import type { LocalDocument } from './records.js';
import type { TabChange } from './types.js';

/** Collects what another tab's writes did to one collection's documents, as this client shows them. */
export class TabChangeBuilder {
  readonly change: TabChange;

  constructor(typeId: string) {
    this.change = { typeId, added: [], modified: [], removed: [], reason: 'tab', source: 'tab' };
  }

  /** One document as this client showed it before (`undefined`: not shown) and shows it now. */
  add(before: LocalDocument | undefined, after: LocalDocument | undefined): void {
    if (after) (before ? this.change.modified : this.change.added).push(after);
    else if (before) this.change.removed.push(before);
  }

  get isEmpty(): boolean {
    return this.change.added.length + this.change.modified.length + this.change.removed.length === 0;
  }
}

import { randomUUID } from 'node:crypto';
import type { Clock } from '@platform/kit';
import type { Collection, Filter, StoredDocument, UpdateModifier } from '@platform/storage';

/** A demotion's mark older than this is a process stopped halfway: it counts for nothing. */
export const DEMOTION_LEASE_MS = 10_000;
/** How long a change waits for another request's demotion of the same holder before answering `busy`. */
export const DEMOTION_WAIT_MS = 3_000;

/** Plain field values, usable both as a filter and as a `$set`. */
type FieldValues = Record<string, unknown>;

export interface GuardedDemotionOptions<T extends StoredDocument> {
  collection: Collection<T>;
  clock: Clock;
  /** The field that carries a demotion's mark, `{ token, at }`, while it is under way. */
  markField: string;
  /** What a holder of the role has (`{ role: 'admin' }`); what a give-back sets. */
  holds: FieldValues;
  /** What the demotion sets (`{ role: 'member' }`); what a give-back requires. */
  demoted: FieldValues;
  /** The holders of which one always stays (`{ tenantId }`; `{}`: the whole collection). */
  group: Filter;
  /** Applied to the writes of the role itself (a record's revision and updatedAt). */
  stamped?: (modifier: UpdateModifier) => UpdateModifier;
}

/** `changed`: it held the role until this demotion; `last`: it is the group's last holder. */
export type DemotionOutcome<T> = { after: T; changed: boolean } | 'gone' | 'last' | 'busy';

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
}

/**
 * Takes a role from one holder while the group keeps at least one, across processes and without
 * transactions (a tenant's admins, the platform's owners). Every write is a compare-and-set.
 *
 * Demoting never shows the holder without the role before the demotion is certain: the holder is
 * first marked (`markField`, the role still held), then the group's holders without a mark are
 * counted, and only when one is left does the mark become the demoted role; else the mark is taken
 * back. Of two holders demoting each other at once, each sees the other's mark or finished
 * demotion, so one holder always stays; when both find only marks they step back and try again
 * after a random pause, and one goes through. A demotion of a marked holder waits for the mark to
 * go (`busy` after `DEMOTION_WAIT_MS`). A mark older than `DEMOTION_LEASE_MS` (a process stopped
 * halfway) counts for nothing and can no longer be completed.
 */
export class GuardedDemotion<T extends StoredDocument> {
  constructor(private readonly options: GuardedDemotionOptions<T>) {}

  async demote(id: string): Promise<DemotionOutcome<T>> {
    const deadline = Date.now() + DEMOTION_WAIT_MS;
    for (;;) {
      const current = await this.settled(id, deadline);
      if (current === null) return 'gone';
      if (current === 'busy') return 'busy';
      if (!this.holdsRole(current)) return { after: current, changed: false };
      const outcome = await this.attempt(id);
      if (outcome === 'last') return 'last';
      if (outcome === 'crossed') {
        if (Date.now() > deadline) return 'busy';
        await pause();
      } else if (outcome !== 'missed') return { after: outcome, changed: true };
    }
  }

  /** The document once no demotion of it is under way (null: it is gone); `busy` if one still is at `deadline`. */
  async settled(id: string, deadline = Date.now() + DEMOTION_WAIT_MS): Promise<T | null | 'busy'> {
    for (;;) {
      const current = await this.options.collection.findById(id);
      if (!current || !this.freshlyMarked(current)) return current;
      if (Date.now() > deadline) return 'busy';
      await pause();
    }
  }

  /** Gives the role back to a holder whose demotion was part of a change refused later, unless it changed meanwhile. */
  async giveBack(id: string): Promise<void> {
    await this.options.collection.updateOne({ id, ...this.options.demoted }, this.stamped({ $set: this.options.holds }));
  }

  /**
   * One attempt: the document demoted, `last` (no other holder and no other demotion under way),
   * `crossed` (no other holder without a mark, but others being demoted: stepped back), `missed`
   * (it changed since it was read).
   */
  private async attempt(id: string): Promise<T | 'last' | 'crossed' | 'missed'> {
    const { collection, markField, holds, demoted, group } = this.options;
    const token = randomUUID();
    if (!(await collection.updateOne({ id, ...holds, ...this.unmarked() }, { $set: { [markField]: { token, at: this.options.clock() } } }))) return 'missed';
    const mine = { id, [`${markField}.token`]: token };
    const unmark = { $unset: { [markField]: '' } };
    if ((await collection.count({ ...group, ...holds, ...this.unmarked() })) > 0) {
      const done = await collection.updateOne({ ...mine, [`${markField}.at`]: { $gte: this.leaseStart() } }, this.stamped({ $set: demoted, ...unmark }));
      if (done) return done;
      await collection.updateOne(mine, unmark);
      return 'missed';
    }
    if (!(await collection.updateOne(mine, unmark))) return 'missed';
    const others = await collection.count({ ...group, ...holds, id: { $ne: id }, [`${markField}.at`]: { $gte: this.leaseStart() } });
    return others > 0 ? 'crossed' : 'last';
  }

  private holdsRole(document: T): boolean {
    return Object.entries(this.options.holds).every(([field, value]) => (document as Record<string, unknown>)[field] === value);
  }

  private freshlyMarked(document: T): boolean {
    const mark = (document as Record<string, unknown>)[this.options.markField] as { at: number } | undefined;
    return mark !== undefined && mark.at >= this.leaseStart();
  }

  private unmarked(): Filter {
    const { markField } = this.options;
    return { $or: [{ [markField]: { $exists: false } }, { [`${markField}.at`]: { $lt: this.leaseStart() } }] };
  }

  private leaseStart(): number {
    return this.options.clock() - DEMOTION_LEASE_MS;
  }

  private stamped(modifier: UpdateModifier): UpdateModifier {
    return this.options.stamped ? this.options.stamped(modifier) : modifier;
  }
}

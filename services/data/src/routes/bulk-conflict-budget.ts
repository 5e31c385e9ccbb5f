import { omittedConflictDetails } from '@platform/documents';

/**
 * Characters of revision-conflict details one bulk answer carries. Each such 409 holds the
 * entity as it is and the changes since the base, so 500 stale patches of a 1 MB document made
 * an answer of more than 500 MB from a 40 kB request, held in memory until all of it was sent.
 */
export const BULK_CONFLICT_DETAILS_BUDGET = 8 * 1024 * 1024;

/**
 * Revisions of history one bulk request's conflict details may replay: each conflict replays its
 * entity's history, so 500 stale patches of an entity with 5,000 changes replayed 2.5 million of
 * them (11 s of event loop) from a 36 kB request, however small their details. 50,000 explain 500
 * conflicts on entities of 100 changes, or 10 on entities of 5,000.
 */
export const BULK_CONFLICT_REPLAY_BUDGET = 50_000;

interface OperationResult {
  status: number;
  body: Record<string, unknown>;
}

/**
 * What one bulk request spends on revision-conflict details. Before a conflict's details are
 * computed, `mayExplain` reserves the history they replay; once either budget is spent (the first
 * conflict is always explained, whatever it costs), conflicts answer `{ baseRevision,
 * currentRevision, detailsOmitted: true }` without reading any history, and the client sends that
 * operation again, alone or first in a request, to get them. `within` holds the answer's details
 * to their budget in the order results finish: conflicts explained concurrently may pass it.
 */
export class ConflictDetailsBudget {
  private characters = 0;
  private revisions = 0;

  constructor(private readonly limits: { characters: number; revisions: number } = { characters: BULK_CONFLICT_DETAILS_BUDGET, revisions: BULK_CONFLICT_REPLAY_BUDGET }) {}

  readonly mayExplain = (replayedRevisions: number): boolean => {
    if (this.characters >= this.limits.characters || this.revisions >= this.limits.revisions) return false;
    this.revisions += replayedRevisions;
    return true;
  };

  within(result: OperationResult): OperationResult {
    const details = result.body.details as Record<string, unknown> | undefined;
    if (result.status !== 409 || result.body.code !== 'DATA_REVISION_CONFLICT' || details === undefined || details.detailsOmitted === true) return result;
    if (this.characters < this.limits.characters) {
      this.characters += JSON.stringify(details).length;
      return result;
    }
    return { status: 409, body: { ...result.body, details: omittedConflictDetails(details.baseRevision as number, details.currentRevision as number) } };
  }
}

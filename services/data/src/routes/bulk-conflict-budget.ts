/**
 * Characters of revision-conflict details one bulk answer carries. Each such 409 holds the
 * entity as it is and the changes since the base, so 500 stale patches of a 1 MB document made
 * an answer of more than 500 MB from a 40 kB request, held in memory until all of it was sent.
 */
export const BULK_CONFLICT_DETAILS_BUDGET = 8 * 1024 * 1024;

interface OperationResult {
  status: number;
  body: Record<string, unknown>;
}

/**
 * A filter for a bulk request's results, in the order they finish: revision conflicts keep their
 * details while the answer's budget lasts (the first always does, whatever its size); after that
 * they answer `{ baseRevision, currentRevision, detailsOmitted: true }`, and the client sends
 * that operation again, alone or first in a request, to get them.
 */
export function conflictDetailsWithin(budget: number): (result: OperationResult) => OperationResult {
  let spent = 0;
  return (result) => {
    const details = result.body.details as Record<string, unknown> | undefined;
    if (result.status !== 409 || result.body.code !== 'DATA_REVISION_CONFLICT' || details === undefined) return result;
    if (spent < budget) {
      spent += JSON.stringify(details).length;
      return result;
    }
    return { status: 409, body: { ...result.body, details: { baseRevision: details.baseRevision, currentRevision: details.currentRevision, detailsOmitted: true } } };
  };
}

/**
 * Characters of documents one bulk answer carries. Every create, patch (a no-op one too) and
 * delete answers its document whole, so 300 no-op patches of a 1 MB document answered 300 MB
 * from a 20 kB request, held in memory until all of it was sent.
 */
export const BULK_DOCUMENTS_BUDGET = 8 * 1024 * 1024;

interface OperationResult {
  status: number;
  body: Record<string, unknown>;
}

/** The fields a document answered without its body keeps: what names its version. */
const VERSION_FIELDS = ['id', 'revision', 'createdAt', 'updatedAt', 'deletedAt'] as const;

/**
 * A filter for a bulk request's results, in the order they finish: a success (200, 201) keeps its
 * document while the answer's budget lasts (the first always does, whatever its size); after that
 * it answers `{ id, revision, createdAt, updatedAt, deletedAt?, bodyOmitted: true }`. The write is
 * applied all the same: the client reads that revision's fields with `GET .../data/{id}/revisions/{revision}`.
 */
export function documentsWithin(budget: number): (result: OperationResult) => OperationResult {
  let spent = 0;
  return (result) => {
    if (result.status !== 200 && result.status !== 201) return result;
    if (spent < budget) {
      spent += JSON.stringify(result.body).length;
      return result;
    }
    const version = Object.fromEntries(VERSION_FIELDS.filter((field) => result.body[field] !== undefined).map((field) => [field, result.body[field]]));
    return { status: result.status, body: { ...version, bodyOmitted: true } };
  };
}

/** Id, revision and fields of documents, sorted by id, for comparing a client's copy with the server's. */
export function comparable(documents: Array<Record<string, unknown>>) {
  return documents
    .map(({ createdAt: _c, updatedAt: _u, access: _a, ...rest }) => rest)
    .sort((a, b) => String(a.id).localeCompare(String(b.id)));
}

/** A calendar day in the reader's locale, machine-readable as an ISO timestamp. */
export function Day({ at }: { at: number }) {
  return <time dateTime={new Date(at).toISOString()}>{new Date(at).toLocaleDateString()}</time>;
}

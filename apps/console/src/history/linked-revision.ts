/** The revision a link asks the document screen to show (`?revision=N`), if it names a whole number. */
export function linkedRevision(search: string = window.location.search): number | undefined {
  const value = new URLSearchParams(search).get('revision');
  return value !== null && /^\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * The live entries whose keys start with `prefix`, sorted by key, as a process-local adapter's
 * `scan` answers them; `live` answers undefined for an expired key (and may drop it).
 */
export function liveWithPrefix(keys: Iterable<string>, prefix: string, live: (key: string) => { value: string } | undefined): Array<{ key: string; value: string }> {
  const found: Array<{ key: string; value: string }> = [];
  for (const key of [...keys]) {
    const entry = key.startsWith(prefix) ? live(key) : undefined;
    if (entry) found.push({ key, value: entry.value });
  }
  return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

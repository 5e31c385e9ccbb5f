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
  return found.sort((a, b) => inTextOrder(a.key, b.key));
}

/** Orders keys and fields as Redis and JavaScript compare strings (by UTF-16 code units). */
export function inTextOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The value at a dotted path (array indexes allowed), or undefined. */
export function valueAt(document: unknown, path: string): unknown {
  let current: unknown = document;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** True when one path equals the other or lies inside it (`a` and `a.b` overlap; `a` and `ab` do not). */
export function pathsOverlap(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
}


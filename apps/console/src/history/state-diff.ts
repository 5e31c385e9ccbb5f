/** An update modifier as the history holds it, e.g. `{ $set: { title: 'x' } }`. */
export type Modifier = Record<string, Record<string, unknown>>;

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Top-level and nested leaf paths whose values differ between two states. */
export function diffStates(before: Record<string, unknown>, after: Record<string, unknown>): Array<{ path: string; before: unknown; after: unknown }> {
  const differences: Array<{ path: string; before: unknown; after: unknown }> = [];
  const walk = (a: unknown, b: unknown, path: string) => {
    const bothObjects = a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b);
    if (bothObjects) {
      const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
      for (const key of [...keys].sort()) walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
    } else if (!same(a, b)) differences.push({ path, before: a, after: b });
  };
  walk(before, after, '');
  return differences;
}

/** The modifier that turns `current` into `target` at the top level: `$set` what differs, `$unset` what is gone. */
export function restoringModifier(current: Record<string, unknown>, target: Record<string, unknown>): Modifier {
  const $set: Record<string, unknown> = {};
  const $unset: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(target)) if (!same(current[key], value)) $set[key] = value;
  for (const key of Object.keys(current)) if (!(key in target)) $unset[key] = '';
  return { ...(Object.keys($set).length ? { $set } : {}), ...(Object.keys($unset).length ? { $unset } : {}) };
}

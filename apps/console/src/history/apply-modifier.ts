/**
 * Replays stored changes to show a document at any revision. Each change holds the update modifier
 * the server applied (the creation is `{ $set: <fields> }` at base revision -1), so the state at
 * revision r is the first r + 1 modifiers applied in order to an empty document. Covers the
 * operators the data service accepts; paths are dotted.
 */
export type Modifier = Record<string, Record<string, unknown>>;

type Container = Record<string, unknown> | unknown[];

function parentOf(document: Record<string, unknown>, path: string, create: boolean): { parent: Container; key: string } | undefined {
  const parts = path.split('.');
  let node: Container = document;
  for (const part of parts.slice(0, -1)) {
    let next = (node as Record<string, unknown>)[part];
    if (next === undefined || next === null || typeof next !== 'object') {
      if (!create) return undefined;
      next = {};
      (node as Record<string, unknown>)[part] = next;
    }
    node = next as Container;
  }
  return { parent: node, key: parts[parts.length - 1]! };
}

function read(document: Record<string, unknown>, path: string): unknown {
  const found = parentOf(document, path, false);
  return found ? (found.parent as Record<string, unknown>)[found.key] : undefined;
}

function write(document: Record<string, unknown>, path: string, value: unknown): void {
  const { parent, key } = parentOf(document, path, true)!;
  (parent as Record<string, unknown>)[key] = value;
}

function remove(document: Record<string, unknown>, path: string): void {
  const found = parentOf(document, path, false);
  if (!found) return;
  if (Array.isArray(found.parent)) found.parent[Number(found.key)] = null;
  else delete found.parent[found.key];
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const eachOf = (value: unknown): unknown[] => (value && typeof value === 'object' && '$each' in value ? ((value as { $each: unknown[] }).$each ?? []) : [value]);

export function applyModifier(document: Record<string, unknown>, modifier: Modifier): Record<string, unknown> {
  const next = structuredClone(document);
  for (const [operator, fields] of Object.entries(modifier)) {
    for (const [path, operand] of Object.entries(fields ?? {})) {
      const current = read(next, path);
      switch (operator) {
        case '$set':
          write(next, path, structuredClone(operand));
          break;
        case '$unset':
          remove(next, path);
          break;
        case '$inc':
          write(next, path, (typeof current === 'number' ? current : 0) + Number(operand));
          break;
        case '$mul':
          write(next, path, (typeof current === 'number' ? current : 0) * Number(operand));
          break;
        case '$min':
          if (current === undefined || (operand as number) < (current as number)) write(next, path, operand);
          break;
        case '$max':
          if (current === undefined || (operand as number) > (current as number)) write(next, path, operand);
          break;
        case '$push':
          write(next, path, [...(Array.isArray(current) ? current : []), ...eachOf(operand)]);
          break;
        case '$addToSet': {
          const list = Array.isArray(current) ? [...current] : [];
          for (const item of eachOf(operand)) if (!list.some((existing) => same(existing, item))) list.push(item);
          write(next, path, list);
          break;
        }
        case '$pull':
          if (Array.isArray(current)) write(next, path, current.filter((item) => !same(item, operand)));
          break;
        case '$pop':
          if (Array.isArray(current)) write(next, path, Number(operand) === -1 ? current.slice(1) : current.slice(0, -1));
          break;
        case '$rename':
          if (current !== undefined) {
            remove(next, path);
            write(next, String(operand), current);
          }
          break;
        default:
          break;
      }
    }
  }
  return next;
}

/** The document's fields at `revision`, from its changes in order. */
export function stateAt(changes: ReadonlyArray<{ modifier: Modifier }>, revision: number): Record<string, unknown> {
  let document: Record<string, unknown> = {};
  for (const change of changes.slice(0, revision + 1)) document = applyModifier(document, change.modifier);
  return document;
}

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

import type { WidgetRegistry } from './registry';
import type { WidgetTree } from './widget';

export interface TreeProblem {
  /** Where in the tree: `rootWidgetId`, `widgets.<id>` or `widgets.<id>.slots.<slot>`. */
  path: string;
  message: string;
}

/**
 * Checks that a widget tree is one tree: the root exists, every slot names widgets that exist,
 * no widget sits in two slots or inside itself (no cycles), and every widget hangs under the root
 * (no orphans). With a registry, every widget's type must also be registered. An empty page
 * (no root, no widgets) is a valid tree.
 */
export function validateWidgetTree(tree: WidgetTree, registry?: WidgetRegistry): TreeProblem[] {
  const problems: TreeProblem[] = [];
  const ids = Object.keys(tree.widgets);
  const parentOf = new Map<string, string>();

  for (const id of ids) {
    const widget = tree.widgets[id];
    if (!widget) continue;
    if (widget.id !== id) problems.push({ path: `widgets.${id}.id`, message: `is ${widget.id} but the widget is stored under ${id}` });
    if (registry && !registry.get(widget.name)) problems.push({ path: `widgets.${id}.name`, message: `${widget.name} is not a registered widget` });
    for (const [slot, children] of Object.entries(widget.slots ?? {})) {
      for (const child of children) {
        const path = `widgets.${id}.slots.${slot}`;
        if (!(child in tree.widgets)) problems.push({ path, message: `names ${child}, which is not in the tree` });
        else if (child === tree.rootWidgetId) problems.push({ path, message: `names the root ${child}: a cycle` });
        else if (parentOf.has(child)) problems.push({ path, message: `names ${child}, which is already in a slot of ${parentOf.get(child)}` });
        else parentOf.set(child, id);
      }
    }
  }

  if (tree.rootWidgetId === undefined) {
    if (ids.length > 0) problems.push({ path: 'rootWidgetId', message: 'is missing, but the tree has widgets' });
    return problems;
  }
  if (!(tree.rootWidgetId in tree.widgets)) {
    problems.push({ path: 'rootWidgetId', message: `${tree.rootWidgetId} is not in the tree` });
    return problems;
  }

  // Walk down from the root; what is never reached is an orphan, or part of a cycle off the root.
  const reached = new Set<string>([tree.rootWidgetId]);
  const queue = [tree.rootWidgetId];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const children of Object.values(tree.widgets[id]?.slots ?? {})) {
      for (const child of children) {
        if (parentOf.get(child) === id && !reached.has(child)) {
          reached.add(child);
          queue.push(child);
        }
      }
    }
  }
  for (const id of ids) {
    if (reached.has(id)) continue;
    problems.push({ path: `widgets.${id}`, message: inCycle(id, parentOf) ? 'is part of a cycle and not under the root' : 'is not under the root (an orphan)' });
  }
  return problems;
}

/** Whether walking up the parents from `start` comes back to it. */
function inCycle(start: string, parentOf: ReadonlyMap<string, string>): boolean {
  const seen = new Set<string>();
  for (let id = parentOf.get(start); id !== undefined && !seen.has(id); id = parentOf.get(id)) {
    if (id === start) return true;
    seen.add(id);
  }
  return false;
}

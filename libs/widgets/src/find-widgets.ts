import { widgetSchema, type Widget } from './widget';

const MAX_DEPTH = 32;

/**
 * Every widget of type `name` anywhere inside `value` (an application's routes, say): objects
 * with a `widgets` map whose entries are widgets. The application shape around its widget trees
 * is not fixed by the spec, so this looks wherever they are.
 */
export function findWidgets(value: unknown, name: string): Widget[] {
  const found: Widget[] = [];
  const visit = (node: unknown, depth: number) => {
    if (depth > MAX_DEPTH || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    const record = node as Record<string, unknown>;
    const widgets = record.widgets;
    if (widgets && typeof widgets === 'object' && !Array.isArray(widgets)) {
      for (const candidate of Object.values(widgets)) {
        const parsed = widgetSchema.safeParse(candidate);
        if (parsed.success && parsed.data.name === name) found.push(parsed.data);
      }
    }
    for (const [key, child] of Object.entries(record)) if (key !== 'widgets') visit(child, depth + 1);
  };
  visit(value, 0);
  return found;
}

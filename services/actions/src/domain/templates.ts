const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_$-]+(?:\.[A-Za-z0-9_$-]+)*)\s*\}\}/g;

/**
 * Placeholders one template may hold (a mail's text, an update modifier's values together). Each
 * is filled anew on every run, objects as JSON: 6,250 `{{data}}` in a mail text stalled the event
 * loop for 24 s on one 16 KB document.
 */
export const MAX_PLACEHOLDERS = 200;

/** What filled templates may still come to; `spend` throws once they would pass it. */
export interface OutputBudget {
  spend(characters: number): void;
}

/** The value at a dotted path (`data.document.title`), or undefined. */
export function valueAtPath(value: unknown, path: string): unknown {
  let current = value;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** How many placeholders `value` holds: in a string, or in every string value of an object or array (never in keys). */
export function placeholderCount(value: unknown): number {
  if (typeof value === 'string') return value.match(PLACEHOLDER)?.length ?? 0;
  if (value !== null && typeof value === 'object') return Object.values(value).reduce((count: number, inner) => count + placeholderCount(inner), 0);
  return 0;
}

/**
 * Fills `{{ path }}` placeholders from `context`: strings as they are, other values as JSON, and
 * missing values as the empty string. No expressions and no code: a path is all a placeholder holds.
 * Every character of the result is spent from `budget`, which stops the filling once it runs out.
 */
export function renderTemplate(template: string, context: unknown, budget: OutputBudget): string {
  budget.spend(template.length);
  return template.replace(PLACEHOLDER, (placeholder, path: string) => {
    const value = valueAtPath(context, path);
    const filled = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    budget.spend(filled.length - placeholder.length);
    return filled;
  });
}

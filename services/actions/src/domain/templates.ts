/** The value at a dotted path (`data.document.title`), or undefined. */
export function valueAtPath(value: unknown, path: string): unknown {
  let current = value;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/**
 * Fills `{{ path }}` placeholders from `context`: strings as they are, other values as JSON, and
 * missing values as the empty string. No expressions and no code: a path is all a placeholder holds.
 */
export function renderTemplate(template: string, context: unknown): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_$-]+(?:\.[A-Za-z0-9_$-]+)*)\s*\}\}/g, (_, path: string) => {
    const value = valueAtPath(context, path);
    if (value === undefined || value === null) return '';
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

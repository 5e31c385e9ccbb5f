import { validateDocument, type SchemaProblem, type TypeSchema } from '@platform/documents';

export type ExtractionResult = { ok: true; data: Record<string, unknown> } | { ok: false; problems: SchemaProblem[] };

/** Models often wrap JSON in a Markdown code fence despite being asked not to. */
function unfence(content: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/i.exec(content);
  return fenced ? (fenced[1] as string) : content;
}

/**
 * Reads a model's answer as a document of the type: a JSON object, reduced to the fields the
 * schema names (nulls count as absent), that passes the type's validation.
 */
export function readExtraction(schema: TypeSchema, content: string): ExtractionResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(unfence(content));
  } catch {
    return { ok: false, problems: [{ field: 'answer', message: 'is not JSON' }] };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, problems: [{ field: 'answer', message: 'is not a JSON object' }] };
  const data = Object.fromEntries(Object.entries(parsed).filter(([name, value]) => Object.hasOwn(schema.properties ?? {}, name) && value !== null));
  const problems = validateDocument(schema, data);
  return problems.length ? { ok: false, problems } : { ok: true, data };
}

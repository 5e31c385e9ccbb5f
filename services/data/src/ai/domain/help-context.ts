/** A piece of the platform's own documentation the help chat answers from. */
export interface HelpDocument {
  title: string;
  text: string;
}

export interface OpenApiLike {
  paths?: Record<string, Record<string, { summary?: string; description?: string } | undefined>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * The OpenAPI document as one line per operation (`POST /api/... : summary`): the routes and what
 * they do, without the schemas that would use up the model's context.
 */
export function openApiSummary(document: OpenApiLike): string {
  const lines: string[] = [];
  for (const [path, operations] of Object.entries(document.paths ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    for (const method of METHODS) {
      const operation = operations[method];
      if (operation) lines.push(`${method.toUpperCase()} ${path}${operation.summary ? `: ${operation.summary}` : ''}`);
    }
  }
  return lines.join('\n');
}

/**
 * The system message of the help chat: how to answer, then the documents, each cut so the
 * whole stays under `maxChars` (earlier documents keep more; they are the more general ones).
 */
export function helpSystemPrompt(documents: HelpDocument[], maxChars: number): string {
  const preamble = [
    'You are the help assistant of this platform. Answer questions about using it from the documentation below.',
    'When the documentation does not cover a question, say so instead of guessing. Answer in the language of the question.',
  ].join(' ');
  let budget = maxChars - preamble.length;
  const parts = [preamble];
  for (const document of documents) {
    if (budget <= 0) break;
    const header = `\n\n=== ${document.title} ===\n`;
    const room = budget - header.length;
    if (room <= 0) break;
    const text = document.text.length > room ? `${document.text.slice(0, Math.max(0, room - 12))}\n[truncated]` : document.text;
    parts.push(header + text);
    budget -= header.length + text.length;
  }
  return parts.join('');
}

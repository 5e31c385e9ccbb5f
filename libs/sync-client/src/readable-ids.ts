import type { Http } from './http.js';

/** The server's limit of ids per `readable` request. */
export const READABLE_BATCH = 1_000;

export type ReadableAnswer = { ok: true; readable: Set<string> } | { ok: false; status: number; code?: string; message: string; retryAfterMs?: number };

/**
 * Asks `POST .../data/readable` which of `ids` the caller may still read, in batches. The server
 * answers only about the ids sent, behind the same RLS as a pull.
 */
export async function readableIds(http: Http, path: string, ids: string[]): Promise<ReadableAnswer> {
  const readable = new Set<string>();
  for (let start = 0; start < ids.length; start += READABLE_BATCH) {
    const answer = await http.request<{ readable?: string[]; code?: string; error?: string }>('POST', path, { ids: ids.slice(start, start + READABLE_BATCH) });
    if (answer.status !== 200) return { ok: false, status: answer.status, code: answer.body?.code, message: answer.body?.error ?? `HTTP ${answer.status}`, retryAfterMs: answer.retryAfterMs };
    for (const id of answer.body.readable ?? []) readable.add(id);
  }
  return { ok: true, readable };
}

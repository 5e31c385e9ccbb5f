import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect, vi } from 'vitest';

/** One answer of the platform, kept as text too so any field that carries an id counts. */
export interface HttpAnswer {
  status: number;
  text: string;
  body: any;
}

export type HttpCall = (method: string, path: string, token?: string, body?: unknown) => Promise<HttpAnswer>;

/** Calls through a platform's front door as a client would: `token` as a bearer, bodies as JSON. */
export function httpCaller(baseUrl: () => string): HttpCall {
  return async (method, path, token, body) => {
    const response = await fetch(`${baseUrl()}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON (an SVG, text/plain): kept as text
    }
    return { status: response.status, text, body: parsed };
  };
}

/**
 * A request whose target is sent exactly as given (fetch drops a `#` and what follows and
 * normalises the path): what a client writing its own request line can send.
 */
export async function rawCall(baseUrl: string, method: string, target: string, token?: string, body?: unknown): Promise<HttpAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ hostname, port, method, path: target, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        resolve({ status: response.statusCode ?? 0, text, body: parsed });
      });
    });
    sent.on('error', reject);
    sent.end(payload);
  });
}

/** Registers `name` under an address unique to the call (password `<name> password 1`); answers its session and user id. */
export async function registerAccount(call: HttpCall, name: string): Promise<{ token: string; userId: string }> {
  const registered = await call('POST', '/api/auth/register', undefined, { email: `${name}-${randomBytes(3).toString('hex')}@example.org`, password: `${name} password 1` });
  expect(registered.status).toBe(201);
  return { token: registered.body.token, userId: registered.body.user.id };
}

export interface SyncStream {
  /** Everything the stream sent so far. */
  text(): string;
  /** Whether the server has ended the stream. */
  ended(): boolean;
  close(): void;
}

/**
 * Opens the realtime sync stream of a project the way a browser client does (a token from
 * `/api/realtime/token`, then the stream), keeping everything it sends; answers once it is ready,
 * or undefined when the token or the stream was refused.
 */
export async function openSyncStream(baseUrl: string, sessionToken: string | undefined, projectId: string): Promise<SyncStream | undefined> {
  const issued = await httpCaller(() => baseUrl)('GET', '/api/realtime/token', sessionToken);
  if (issued.status !== 200) return undefined;
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}${issued.body.streamPath.replace('{projectId}', projectId)}?token=${encodeURIComponent(issued.body.token)}`, { signal: abort.signal });
  if (response.status !== 200) {
    abort.abort();
    return undefined;
  }
  let received = '';
  let ended = false;
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      received += decoder.decode(value, { stream: true });
    }
    ended = true;
  })();
  await vi.waitFor(() => expect(received).toContain('event: ready'), { timeout: 5_000 });
  return { text: () => received, ended: () => ended, close: () => abort.abort() };
}

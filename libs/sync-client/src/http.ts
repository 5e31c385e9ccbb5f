/** The network could not be reached (offline, connection refused, timeout): retry later. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super(`network error: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'NetworkError';
  }
}

/**
 * The server refused the session (401), or the account may not sync until it confirms its email
 * address (403 `GATEWAY_EMAIL_UNCONFIRMED`, where the operator requires confirmed addresses): the
 * client pauses until a request works again.
 */
export class UnauthorizedError extends Error {
  constructor(readonly code?: string) {
    super(`unauthorized${code ? ` (${code})` : ''}: the session was refused`);
    this.name = 'UnauthorizedError';
  }
}

export interface HttpAnswer<T = any> {
  status: number;
  body: T;
  /** How long the server asked to wait before trying again (its `Retry-After`), on a busy answer. */
  retryAfterMs?: number;
}

export interface HttpOptions {
  baseUrl: string;
  /** A session token sent as `Authorization: Bearer`; omit it when a cookie carries the session. */
  token?: string;
  /** Asked for the token before the first request and again after every 401. */
  getToken?: () => string | undefined | Promise<string | undefined>;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /** Per-request timeout (default 30 s). */
  timeoutMs?: number;
}

/**
 * JSON over the global fetch, with the session, a timeout, network failures as NetworkError and a
 * refused session (401) as UnauthorizedError.
 */
export class Http {
  readonly fetch: typeof fetch;
  private token: Promise<string | undefined> | undefined;

  constructor(private readonly options: HttpOptions) {
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  async headers(extra: Record<string, string> = {}): Promise<Record<string, string>> {
    const { getToken } = this.options;
    this.token ??= getToken ? Promise.resolve().then(getToken) : Promise.resolve(this.options.token);
    const token = await this.token.catch(() => undefined);
    return { ...this.options.headers, ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra };
  }

  /** The current token was refused: the next request asks `getToken` again. */
  forgetToken(): void {
    this.token = undefined;
  }

  url(path: string): string {
    return `${this.options.baseUrl.replace(/\/$/, '')}${path}`;
  }

  async request<T = any>(method: string, path: string, body?: unknown): Promise<HttpAnswer<T>> {
    let response: Response;
    try {
      response = await this.fetch(this.url(path), {
        method,
        headers: await this.headers(body === undefined ? {} : { 'content-type': 'application/json' }),
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      throw new NetworkError(error);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new NetworkError(error);
    }
    let parsed: unknown = text;
    if (text && response.headers.get('content-type')?.includes('json')) parsed = JSON.parse(text);
    const code = (parsed as { code?: unknown } | undefined)?.code;
    if (response.status === 401) {
      this.forgetToken();
      throw new UnauthorizedError(typeof code === 'string' ? code : undefined);
    }
    // Not a refusal of the change: the same session works once the address is confirmed.
    if (response.status === 403 && code === EMAIL_UNCONFIRMED) throw new UnauthorizedError(EMAIL_UNCONFIRMED);
    const retryAfterMs = isTransientStatus(response.status) ? retryAfterDelay(response.headers.get('retry-after'), Date.now()) : undefined;
    return { status: response.status, body: parsed as T, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  }
}

/** The longest `Retry-After` the client waits out: a server asking for more is retried after this. */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/**
 * A `Retry-After` header as a delay (RFC 9110: seconds, or an HTTP date), capped at
 * MAX_RETRY_AFTER_MS; undefined when absent or unreadable.
 */
export function retryAfterDelay(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  // An HTTP date starts with the day's name; Date.parse alone would take "-5" for a year.
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : /^[A-Za-z]/.test(value) ? Date.parse(value) - now : Number.NaN;
  if (Number.isNaN(ms)) return undefined;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** The gateway's refusal of everything but the account itself to an account whose email must be confirmed first. */
export const EMAIL_UNCONFIRMED = 'GATEWAY_EMAIL_UNCONFIRMED';

/** Answers the client retries (the server is busy or unreachable behind a proxy), never gives up on. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

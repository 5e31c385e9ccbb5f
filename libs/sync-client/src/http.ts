/** The network could not be reached (offline, connection refused, timeout): retry later. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super(`network error: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'NetworkError';
  }
}

export interface HttpAnswer<T = any> {
  status: number;
  body: T;
}

export interface HttpOptions {
  baseUrl: string;
  /** A session token sent as `Authorization: Bearer`; omit it when a cookie carries the session. */
  token?: string;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /** Per-request timeout (default 30 s). */
  timeoutMs?: number;
}

/** JSON over the global fetch, with the session, a timeout, and network failures as NetworkError. */
export class Http {
  readonly fetch: typeof fetch;

  constructor(private readonly options: HttpOptions) {
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...this.options.headers, ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}), ...extra };
  }

  url(path: string): string {
    return `${this.options.baseUrl.replace(/\/$/, '')}${path}`;
  }

  async request<T = any>(method: string, path: string, body?: unknown): Promise<HttpAnswer<T>> {
    let response: Response;
    try {
      response = await this.fetch(this.url(path), {
        method,
        headers: this.headers(body === undefined ? {} : { 'content-type': 'application/json' }),
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
    return { status: response.status, body: parsed as T };
  }
}

/** Answers the client retries (the server is busy or unreachable behind a proxy), never gives up on. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

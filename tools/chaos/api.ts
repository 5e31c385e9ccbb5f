import type { Outcome, Traffic } from './traffic';

export interface Answer<T = any> {
  outcome: Outcome;
  body: T;
}

/** A request that has not answered in this time counts as a timeout (and a write is retried). */
const REQUEST_TIMEOUT_MS = 15_000;

/** JSON requests to the gateway as one signed-in user, every one counted in the traffic. */
export class Api {
  constructor(
    readonly baseUrl: string,
    private readonly traffic: Traffic,
    readonly token = '',
  ) {}

  as(token: string): Api {
    return new Api(this.baseUrl, this.traffic, token);
  }

  async request<T = any>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
    try {
      const response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await response.text();
      this.traffic.record(response.status, method, path);
      return { outcome: response.status, body: (text ? JSON.parse(text) : undefined) as T };
    } catch (error) {
      const outcome = (error as Error).name === 'TimeoutError' ? 'timeout' : 'network';
      this.traffic.record(outcome, method, path);
      return { outcome, body: undefined as T };
    }
  }

  /** A request that must answer `expected` (setup and verification); anything else stops the run. */
  async expect<T = any>(expected: number, method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.request<T>(method, path, body);
    if (answer.outcome !== expected) throw new Error(`${method} ${path} answered ${answer.outcome}, expected ${expected}: ${JSON.stringify(answer.body)?.slice(0, 300)}`);
    return answer.body;
  }

  /** Repeats a read until it answers 200, for checks right after the faults. */
  async eventually<T = any>(path: string, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answer = await this.request<T>('GET', path);
      if (answer.outcome === 200) return answer.body;
      if (Date.now() > deadline) throw new Error(`GET ${path} still answers ${answer.outcome} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

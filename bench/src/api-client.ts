/** A signed-in JSON client for setting up benchmark fixtures through the public API. */
export interface ApiClient {
  token: string;
  call<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
}

/** One JSON call; anything but a 2xx throws with the answer. */
export async function apiRequest<T = unknown>(baseUrl: string, method: string, path: string, token: string | undefined, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** Registers a fresh user and answers a client that calls as them (Bearer token). */
export async function signedInClient(baseUrl: string): Promise<ApiClient> {
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@example.org`;
  const { token } = (await apiRequest(baseUrl, 'POST', '/api/auth/register', undefined, { email, password: 'benchmark password' })) as { token: string };
  return { token, call: (method, path, body) => apiRequest(baseUrl, method, path, token, body) as never };
}

/** Runs `task` for every item with at most `concurrency` in flight. */
export async function forEachConcurrently<T>(items: T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++] as T);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './openapi';

/** The error body every service answers (`{ error, code, details? }`), with the field it names, if any. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | undefined,
  ) {
    super(message);
  }

  /** The request field a 400 names: `details.field`, or the first validation issue's `field`. */
  get field(): string | undefined {
    const field = this.details?.field;
    if (typeof field === 'string') return field;
    return this.firstIssue?.field;
  }

  /**
   * The first validation issue (`{ field: 'body.password', message: 'at least 8 characters' }`), if
   * the 400 lists any: the request validator's `issues`, else an entity write's `problems`
   * (`{ field: 'name', message: 'must not be empty' }`).
   */
  get firstIssue(): { field: string; message: string } | undefined {
    const issues = this.details?.issues ?? this.details?.problems;
    const first: unknown = Array.isArray(issues) ? issues[0] : undefined;
    if (!first || typeof first !== 'object') return undefined;
    const { field, message } = first as { field?: unknown; message?: unknown };
    return typeof field === 'string' && typeof message === 'string' ? { field, message } : undefined;
  }
}

type Listener = (status: 401 | 503 | 'ok') => void;
const listeners = new Set<Listener>();

/** Hears when the API says the session is gone (401), is unavailable (503), or answers again. */
export function onApiHealth(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const healthReporter: Middleware = {
  onResponse({ response }) {
    const status = response.status === 401 || response.status === 503 ? response.status : 'ok';
    for (const listener of listeners) listener(status);
    return undefined;
  },
};

/** Typed calls to the gateway (paths and bodies from /api/openapi.json); the session cookie rides along. */
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });
api.use(healthReporter);

/** The data of an answer, or an `ApiError` built from its error body. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const body = (error ?? {}) as { error?: string; message?: string; code?: string; details?: Record<string, unknown> };
  throw new ApiError(response.status, body.code ?? `HTTP_${response.status}`, body.error ?? body.message ?? response.statusText, body.details);
}

import { AppError } from '@platform/kit';
import { identityError } from '../errors';

/**
 * Runs work against the session store (KeyValue); when the store cannot be reached the caller
 * gets a clear 503 instead of a 500. Errors the work raises on purpose pass through.
 */
export async function withSessionStore<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw identityError('IDENTITY_SESSION_STORE_UNAVAILABLE', { details: { reason: (error as Error).message } });
  }
}

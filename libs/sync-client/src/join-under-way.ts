import { NetworkError } from './http.js';

/**
 * What a push() or pull() called while another is under way answers: that one, or, when it could
 * not reach the server, an attempt started after the call (`attemptNow` joins one already started
 * by another such caller). The attempt under way may have been sent on a connection that died
 * before the call (a network that dropped silently and came back), so its failure says nothing
 * about the network at the time of the call.
 */
export function joinUnderWay<T>(underWay: Promise<T>, attemptNow: () => Promise<T>): Promise<T> {
  return underWay.catch((error: unknown) => {
    if (!(error instanceof NetworkError)) throw error;
    return attemptNow();
  });
}

/**
 * A fetch that holds the first request whose URL `matches` until `release()`: before it is sent
 * (`hold: 'request'`, a request still on the way) or once the server has answered it, the answer
 * kept from its caller (`hold: 'answer'`, an answer on the way back). `held` resolves when it is
 * held, which is where a test lands what races it. Every other request passes.
 */
export function heldFetch(matches: (url: string) => boolean, options: { hold: 'request' | 'answer'; fetch?: typeof globalThis.fetch }) {
  const inner = options.fetch ?? globalThis.fetch;
  let reached!: () => void;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let caught = false;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (caught || !matches(String(input))) return inner(input, init);
    caught = true;
    if (options.hold === 'request') {
      reached();
      await released;
      return inner(input, init);
    }
    const answer = await inner(input, init);
    reached();
    await released;
    return answer;
  };
  return { fetch, held, release };
}

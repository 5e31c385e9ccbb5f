/**
 * A fetch that simulates losing the network (not the backend): while `online` is false every
 * request fails the way fetch does. `requests` lists what reached the server: method, path relative to
 * `baseUrl`, and a JSON body when there is one.
 */
export function flakyNetwork(baseUrl: string) {
  const network = { online: true, failures: 0, requests: [] as string[] };
  const fetch: typeof globalThis.fetch = (input, init) => {
    if (!network.online) {
      network.failures += 1;
      return Promise.reject(new TypeError('fetch failed'));
    }
    const body = typeof init?.body === 'string' ? ` ${init.body}` : '';
    network.requests.push(`${init?.method ?? 'GET'} ${String(input).replace(baseUrl, '')}${body}`);
    return globalThis.fetch(input, init);
  };
  return { network, fetch };
}

export type FlakyNetwork = ReturnType<typeof flakyNetwork>['network'];

/** An open SSE stream of project:{projectId}:sync that reports when a text first appears in it. */
export async function openStream(baseUrl: string, token: string, projectId: string) {
  const issued = (await (await fetch(`${baseUrl}/api/realtime/token`, { headers: { authorization: `Bearer ${token}` } })).json()) as { token: string };
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/api/realtime/projects/${projectId}/sync?token=${encodeURIComponent(issued.token)}`, { signal: abort.signal });
  const waiters = new Map<string, (at: number) => void>();
  let text = '';
  const ready = new Promise<void>((resolve) => waiters.set('event: ready', () => resolve()));
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      for (const [needle, resolve] of waiters) {
        if (text.includes(needle)) {
          waiters.delete(needle);
          resolve(performance.now());
        }
      }
      if (text.length > 100_000) text = text.slice(-10_000);
    }
  })().catch(() => undefined);
  await ready;
  return {
    /** Resolves with the time the entity's notification arrives; rejects after 30 s, so a lost notification fails the run instead of hanging it. */
    next: (entityId: string) =>
      new Promise<number>((resolve, reject) => {
        const needle = `"entityId":"${entityId}"`;
        const timer = setTimeout(() => {
          waiters.delete(needle);
          reject(new Error(`no notification of ${entityId} within 30 s`));
        }, 30_000);
        waiters.set(needle, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      }),
    close: () => abort.abort(),
  };
}

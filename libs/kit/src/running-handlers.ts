import type { FastifyInstance, RouteHandlerMethod } from 'fastify';

/**
 * Makes closing the app wait for the route handlers still running. Fastify's close waits for open
 * connections, but a handler whose client went away keeps running after its connection closed: a
 * write it then made found the bus or the store already closed by the shutdown that followed.
 * Every handler that returns a promise is counted until it settles; close waits for the count to
 * reach zero, at most `maxWaitMs` (a stuck handler must not hold a shutdown forever).
 */
export function awaitRunningHandlersOnClose(app: FastifyInstance, maxWaitMs = 10_000): void {
  let running = 0;
  let idle: (() => void) | undefined;
  const settled = () => {
    running -= 1;
    if (running === 0) idle?.();
  };

  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function countedHandler(this: FastifyInstance, request, reply) {
      const result = handler.call(this, request, reply) as unknown;
      // Only a promise can outlive its call; what it answers is passed on untouched.
      if (result instanceof Promise) {
        running += 1;
        result.then(settled, settled);
      }
      return result;
    } as RouteHandlerMethod;
  });

  app.addHook('onClose', async () => {
    if (running === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((done) => {
      idle = done;
      timer = setTimeout(done, maxWaitMs);
    });
    clearTimeout(timer);
  });
}

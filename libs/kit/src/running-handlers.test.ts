import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { awaitRunningHandlersOnClose } from './running-handlers';

/** An app whose one route runs until `release` is called; `started` resolves when it begins. */
async function appWithSlowRoute(maxWaitMs?: number) {
  const app = Fastify();
  awaitRunningHandlersOnClose(app, maxWaitMs);
  let release: () => void = () => {};
  let begin: () => void = () => {};
  const started = new Promise<void>((done) => (begin = done));
  const state = { finished: false };
  app.get('/slow', async () => {
    begin();
    await new Promise<void>((done) => (release = done));
    state.finished = true;
    return { ok: true };
  });
  app.get('/sync', (_request, reply) => {
    void reply.send({ sync: true });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { app, port, started, release: () => release(), state };
}

/** Sends GET /slow and drops the connection once the handler runs, as a client that gave up. */
function abandonedRequest(port: number, started: Promise<void>): void {
  const sent = request({ host: '127.0.0.1', port, path: '/slow' });
  sent.on('error', () => {});
  sent.end();
  void started.then(() => sent.destroy());
}

describe('awaitRunningHandlersOnClose', () => {
  it('makes close wait for a handler whose client went away', async () => {
    const { app, port, started, release, state } = await appWithSlowRoute();
    abandonedRequest(port, started);
    await started;
    setTimeout(release, 200);
    await app.close();
    expect(state.finished).toBe(true);
  });

  it('gives up waiting after the bound, so a stuck handler cannot hold a shutdown', async () => {
    const { app, port, started, state } = await appWithSlowRoute(150);
    abandonedRequest(port, started);
    await started;
    const closing = Date.now();
    await app.close();
    expect(state.finished).toBe(false);
    expect(Date.now() - closing).toBeGreaterThanOrEqual(140);
  });

  it('leaves handlers that answer through reply.send as they were', async () => {
    const { app } = await appWithSlowRoute();
    const response = await app.inject({ method: 'GET', url: '/sync' });
    expect(response.json()).toEqual({ sync: true });
    await app.close();
  });
});

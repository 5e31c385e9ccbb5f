import { randomBytes } from 'node:crypto';
import { SESSION_COOKIE } from '@platform/contracts';
import { createLogger, type HttpTimeouts, type ServiceDefinition } from '@platform/kit';
import { createMemoryKeyValue } from '@platform/kv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway, type Gateway } from './app';
import { slowClient } from './slow-client';

const timeouts: HttpTimeouts = { headersMs: 300, requestMs: 600, idleMs: 5_000 };

/** A route that answers well after every request limit: responses must not be cut by them. */
const slowService: ServiceDefinition = {
  name: 'data',
  routes: async (app) => {
    app.get('/api/help/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      return { done: true };
    });
  },
};

let gateway: Gateway;
/** The gateway's loopback address, e.g. `http://127.0.0.1:40123`. */
let url: string;

beforeAll(async () => {
  gateway = await buildGateway({
    logger: createLogger({ level: 'silent' }),
    kv: createMemoryKeyValue(),
    clock: Date.now,
    principalSecret: randomBytes(32).toString('hex'),
    sessionCookie: SESSION_COOKIE,
    local: { services: [slowService], context: {} as never },
    remotes: new Map(),
    dependencyProbes: [],
    timeouts,
  });
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  const address = gateway.app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await gateway.app.close();
});

describe('slow clients at the gateway', () => {
  it('closes a connection whose headers arrive a byte at a time, with 408', async () => {
    const { closedAfterMs, received } = await slowClient(url, 'GET /api/health HTTP/1.1\r\n', 'X-Slow: 1\r\n'.repeat(100), { dripEveryMs: 50, waitMs: 4_000 });
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs!).toBeLessThan(2_500);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection whose body arrives a byte at a time, with 408', async () => {
    const body = JSON.stringify({ padding: 'x'.repeat(200) });
    const { closedAfterMs, received } = await slowClient(
      url,
      `POST /api/help/slow HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
      { dripEveryMs: 50, waitMs: 4_000 },
    );
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs!).toBeLessThan(2_500);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('lets a response take longer than the request limits once the request has arrived', async () => {
    const response = await fetch(`${url}/api/help/slow`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ done: true });
  });
});

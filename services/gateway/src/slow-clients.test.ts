import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { createLogger, type HttpTimeouts, type ServiceDefinition } from '@platform/kit';
import { createMemoryKeyValue } from '@platform/kv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway, type Gateway } from './app';

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
let port: number;

beforeAll(async () => {
  gateway = await buildGateway({
    logger: createLogger({ level: 'silent' }),
    kv: createMemoryKeyValue(),
    clock: Date.now,
    principalSecret: randomBytes(32).toString('hex'),
    local: { services: [slowService], context: {} as never },
    remotes: new Map(),
    dependencyProbes: [],
    timeouts,
  });
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  const address = gateway.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});

afterAll(async () => {
  await gateway.app.close();
});

/**
 * Opens a loopback connection, writes `start`, then one byte of `drip` every 50 ms; answers what
 * the server sent and when it closed the connection (or gave up after `waitMs`).
 */
async function slowClient(start: string, drip: string, waitMs: number): Promise<{ closedAfterMs: number | null; received: string }> {
  const socket: Socket = connect(port, '127.0.0.1');
  const opened = Date.now();
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  socket.write(start);
  let sent = 0;
  const dripping = setInterval(() => {
    if (socket.writable && sent < drip.length) socket.write(drip[sent++]!);
  }, 50);
  const closedAfterMs = await new Promise<number | null>((resolve) => {
    const giveUp = setTimeout(() => resolve(null), waitMs);
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve(Date.now() - opened);
    });
  });
  clearInterval(dripping);
  socket.destroy();
  return { closedAfterMs, received };
}

describe('slow clients at the gateway', () => {
  it('closes a connection whose headers arrive a byte at a time, with 408', async () => {
    const { closedAfterMs, received } = await slowClient('GET /api/health HTTP/1.1\r\n', 'X-Slow: 1\r\n'.repeat(100), 4_000);
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs!).toBeLessThan(2_500);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection whose body arrives a byte at a time, with 408', async () => {
    const body = JSON.stringify({ padding: 'x'.repeat(200) });
    const { closedAfterMs, received } = await slowClient(
      `POST /api/help/slow HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
      4_000,
    );
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs!).toBeLessThan(2_500);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('lets a response take longer than the request limits once the request has arrived', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/api/help/slow`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ done: true });
  });
});

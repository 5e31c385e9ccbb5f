import { createServer, type Server } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { freePort, portRangeFor, RESERVED_PORT_RANGE } from './processes';

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('freePort', () => {
  it('answers loopback ports below the ephemeral range that a process can then listen on', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(RESERVED_PORT_RANGE.low);
      expect(port).toBeLessThanOrEqual(RESERVED_PORT_RANGE.high);
    }
    const servers = await Promise.all([...new Set(ports)].map(listen));
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('draws again when the port it drew is taken', async () => {
    const taken = await listen(await freePort());
    const takenPort = (taken.address() as { port: number }).port;
    const { low, high } = portRangeFor(process.env.VITEST_POOL_ID);
    // The first draw lands on the taken port, the later ones wherever they fall.
    const random = vi.spyOn(Math, 'random').mockReturnValueOnce((takenPort - low + 0.5) / (high - low + 1));
    try {
      const answer = await freePort();
      expect(random.mock.calls.length).toBeGreaterThanOrEqual(2);
      expect(answer).not.toBe(takenPort);
      await new Promise((resolve) => listen(answer).then((server) => server.close(resolve)));
    } finally {
      random.mockRestore();
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('never answers the same port twice in a process, though each is free again once checked', async () => {
    const ports: number[] = [];
    for (let call = 0; call < 300; call += 1) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });

  it("gives each vitest worker a share of the range of its own, and a process outside vitest the whole range", () => {
    const shares = [1, 2, 3, 4, 5, 6, 7, 8].map((worker) => portRangeFor(String(worker)));
    for (const [index, share] of shares.entries()) {
      expect(share.low).toBeGreaterThanOrEqual(RESERVED_PORT_RANGE.low);
      expect(share.high).toBeLessThanOrEqual(RESERVED_PORT_RANGE.high);
      expect(share.high - share.low).toBeGreaterThan(1_000);
      for (const other of shares.slice(index + 1)) expect(share.high < other.low || other.high < share.low).toBe(true);
    }
    expect(portRangeFor('9')).toEqual(shares[0]);
    expect(portRangeFor(undefined)).toEqual(RESERVED_PORT_RANGE);
    expect(portRangeFor('')).toEqual(RESERVED_PORT_RANGE);
  });
});

import { createServer, type Server } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { freePort, RESERVED_PORT_RANGE } from './processes';

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
    const { low, high } = RESERVED_PORT_RANGE;
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
});

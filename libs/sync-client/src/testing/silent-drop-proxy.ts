import { connect, createServer, type Socket } from 'node:net';

export interface SilentDropProxy {
  /** The proxy's base URL: give it to the client instead of the server's. */
  url: string;
  /** Loses every byte from now on, in both directions, without closing or resetting anything. */
  drop(): void;
  /**
   * The network is back: new connections work again. Connections that were open during the drop
   * are reset, as a router that lost their state answers the next packet on them.
   */
  restore(): void;
  readonly dropped: boolean;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  server: Socket;
  /** Opened before or during the current drop: its bytes are lost until it is reset. */
  dead: boolean;
}

/**
 * A TCP proxy to `target` (an http URL) whose network can drop silently: unlike a refused
 * connection, nothing tells either side, so only timeouts and keep-alive watchdogs notice (what a
 * phone that loses its signal, or a NAT that forgets a connection, does to a client).
 */
export async function silentDropProxy(target: string): Promise<SilentDropProxy> {
  const { hostname, port } = new URL(target);
  const pairs = new Set<Pair>();
  let dropped = false;
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    const pair: Pair = { client, server: upstream, dead: dropped };
    pairs.add(pair);
    client.on('data', (chunk) => {
      if (!pair.dead) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!pair.dead) client.write(chunk);
    });
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    // A lost network carries no FIN either: a closed side stays unnoticed by the other while dead.
    client.on('close', () => (pair.dead ? upstream.destroy() : end()));
    upstream.on('close', () => (pair.dead ? undefined : end()));
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    get dropped() {
      return dropped;
    },
    drop() {
      dropped = true;
      for (const pair of pairs) pair.dead = true;
    },
    restore() {
      dropped = false;
      for (const pair of [...pairs].filter((candidate) => candidate.dead)) {
        pairs.delete(pair);
        pair.client.resetAndDestroy();
        pair.server.destroy();
      }
    },
    close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.server.destroy();
      }
      pairs.clear();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

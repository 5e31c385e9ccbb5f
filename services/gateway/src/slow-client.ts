import { connect } from 'node:net';

export interface SlowClientOutcome {
  /** How long after opening the server closed the connection, or null when it kept it open for `waitMs`. */
  closedAfterMs: number | null;
  /** Everything the server sent. */
  received: string;
}

/**
 * A client sending its request slowly (slowloris): opens a connection to `url`'s host and port,
 * writes `start`, then one character of `drip` every `dripEveryMs`, until the server closes the
 * connection or `waitMs` has passed.
 */
export async function slowClient(url: string, start: string, drip: string, timing: { dripEveryMs: number; waitMs: number }): Promise<SlowClientOutcome> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const opened = Date.now();
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  socket.write(start);
  let sent = 0;
  const dripping = setInterval(() => {
    if (socket.writable && sent < drip.length) socket.write(drip[sent++]!);
  }, timing.dripEveryMs);
  const closedAfterMs = await new Promise<number | null>((resolve) => {
    const giveUp = setTimeout(() => resolve(null), timing.waitMs);
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve(Date.now() - opened);
    });
  });
  clearInterval(dripping);
  socket.destroy();
  return { closedAfterMs, received };
}

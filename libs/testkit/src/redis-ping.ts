import { connect } from 'node:net';

/** Sends PING to the Redis server on loopback `port` and answers its reply line (`+PONG` when it is up). */
export function redisPing(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.end();
      resolve(data.toString().trim());
    });
    socket.once('error', reject);
  });
}

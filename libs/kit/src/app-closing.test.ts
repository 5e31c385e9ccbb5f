import { connect, type AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { createApp } from './app';
import { createLogger } from './logger';

it('answers a request that arrives while the app closes 503 in the platform error shape, with a code', async () => {
  const app = await createApp({ logger: createLogger({ name: 'closing-test', level: 'silent' }), title: 'closing', openapi: false });
  app.get('/fast', async () => ({ ok: true }));
  // After the app's own hooks: runs once the close has begun, before idle connections are cut.
  let duringClose = async () => {};
  app.addHook('preClose', async () => duringClose());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;

  // A kept-alive connection, as the gateway's proxy holds to a service.
  const socket = connect(port, '127.0.0.1');
  let received = '';
  let answered: () => void = () => {};
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString();
    if (received.includes('}')) answered();
  });
  const nextAnswer = () => new Promise<void>((done) => (answered = done));
  const ask = async () => {
    received = '';
    const answer = nextAnswer();
    socket.write('GET /fast HTTP/1.1\r\nhost: x\r\n\r\n');
    await answer;
    return received;
  };
  expect(await ask()).toMatch(/^HTTP\/1\.1 200/);

  // The next request comes on that connection once the close has begun, before idle connections are cut
  // (a rolling restart while the proxy sends): what answers it.
  let during = '';
  duringClose = async () => {
    during = await ask();
  };
  await app.close();
  socket.destroy();

  expect(during).toMatch(/^HTTP\/1\.1 503/);
  expect(during.toLowerCase()).toContain('connection: close');
  const body = JSON.parse(during.slice(during.indexOf('\r\n\r\n') + 4)) as unknown;
  expect(body).toEqual({ error: 'This service is stopping; try again shortly', code: 'SERVICE_STOPPING' });
});

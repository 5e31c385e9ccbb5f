import { describe, expect, it } from 'vitest';
import { superviseProcess } from './supervised-process';

/** A process that answers /api/health on PORT (a free one for 0, printed), and exits on /crash. */
const healthServer = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  if (req.url === '/crash') process.exit(3);
  res.end('{"status":"ok"}');
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening on ' + server.address().port));
`;

describe('a supervised service process', () => {
  it('streams its lines, and once healthy is restarted after a crash with the crash reported', async () => {
    const lines: string[] = [];
    const events: string[] = [];
    const supervised = superviseProcess({
      name: 'probe',
      command: process.execPath,
      args: ['-e', healthServer],
      cwd: process.cwd(),
      env: { PATH: process.env.PATH, PORT: '0' },
      onLine: (line) => lines.push(line),
      onEvent: (message) => events.push(message),
      initialBackoffMs: 50,
    });
    const urlOf = async (nth: number) => {
      await expect.poll(() => lines.filter((line) => line.startsWith('listening on ')).length, { timeout: 10_000 }).toBe(nth);
      return `http://127.0.0.1:${lines.filter((line) => line.startsWith('listening on ')).at(-1)!.slice('listening on '.length)}`;
    };
    try {
      const url = await urlOf(1);
      await supervised.waitHealthy(url, 10_000);
      await fetch(`${url}/crash`).catch(() => undefined);
      await expect.poll(() => supervised.restarts, { timeout: 10_000 }).toBe(1);
      await supervised.waitHealthy(await urlOf(2), 10_000);
      expect(events).toEqual(['exited (code 3); restarting in 50 ms']);
    } finally {
      await supervised.stop();
    }
  });

  it('fails start-up with its last lines when it exits before it was healthy, and is not restarted', async () => {
    const supervised = superviseProcess({
      name: 'broken',
      command: process.execPath,
      args: ['-e', 'console.error("PRINCIPAL_SECRET: required"); process.exit(1)'],
      cwd: process.cwd(),
      env: { PATH: process.env.PATH },
      onLine: () => {},
      onEvent: () => {},
    });
    await expect(supervised.waitHealthy('http://127.0.0.1:9', 10_000)).rejects.toThrow(/broken exited \(code 1\) before it was healthy:\nPRINCIPAL_SECRET: required/);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(supervised.restarts).toBe(0);
  });
});

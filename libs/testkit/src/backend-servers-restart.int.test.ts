import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { startBackendServers } from './backend-servers';
import { describeWithBackend } from './describe-with-backend';
import { redisPing } from './redis-ping';

async function eventually<T>(probe: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await probe();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describeWithBackend('redis', 'startBackendServers with onBackendEvent', () => {
  it('restarts a local server killed with -9 on the same port, and says so (pnpm start:services)', async () => {
    const events: string[] = [];
    // Only Redis is local here: the other two are "given" and never contacted.
    const backends = await startBackendServers({ MONGO_URL: 'mongodb://127.0.0.1:1/', NATS_URL: 'nats://127.0.0.1:1' }, { onBackendEvent: (server, message) => events.push(`${server} ${message}`) });
    try {
      const port = Number(new URL(backends.urls.redis).port);
      expect(await redisPing(port)).toBe('+PONG');
      // redis-server names itself by its address in the process list: this one's pid, killed as a crash would.
      const pid = Number(execFileSync('pgrep', ['-x', '-f', `redis-server 127.0.0.1:${port}`], { encoding: 'utf8' }).trim());
      process.kill(pid, 'SIGKILL');
      await eventually(async () => expect(events).toContain('redis restarted'));
      expect(events[0]).toBe('redis exited (SIGKILL); restarting in 500 ms');
      expect(await redisPing(port)).toBe('+PONG');

      // Once a stop has begun (Ctrl-C signals the backends themselves too), an exit is left alone.
      backends.holdRestarts();
      process.kill(Number(execFileSync('pgrep', ['-x', '-f', `redis-server 127.0.0.1:${port}`], { encoding: 'utf8' }).trim()), 'SIGINT');
      await eventually(() => redisPing(port).then(() => Promise.reject(new Error('still up')), () => undefined));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(events).toEqual(['redis exited (SIGKILL); restarting in 500 ms', 'redis restarted']);
      await expect(redisPing(port)).rejects.toThrow();
    } finally {
      await backends.stop();
    }
  });
});

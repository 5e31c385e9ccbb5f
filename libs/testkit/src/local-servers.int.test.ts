import { describe, expect, it } from 'vitest';
import { describeWithBackend } from './describe-with-backend';
import { startRedisServer } from './local-servers';
import { redisPing } from './redis-ping';

describeWithBackend('redis', 'testkit local servers', () => {
  it('keeps its port across stop and restart, and is unreachable while stopped', async () => {
    const server = await startRedisServer();
    try {
      expect(await redisPing(server.port)).toBe('+PONG');
      await server.stop({ kill: true });
      await expect(redisPing(server.port)).rejects.toThrow();
      await server.restart();
      expect(await redisPing(server.port)).toBe('+PONG');
      expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
    } finally {
      await server.dispose();
    }
  });
});

describe('testkit backend report', () => {
  it('gives every suite either a URL or a reason', async () => {
    const { inject } = await import('vitest');
    const report = inject('backends');
    for (const kind of ['mongo', 'nats', 'redis'] as const) {
      const entry = report[kind];
      expect(entry.url ?? ('reason' in entry ? entry.reason : undefined)).toBeTruthy();
    }
  });
});

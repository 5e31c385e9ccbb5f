import { describeWithBackend, describeWithOwnServer } from '@platform/testkit';
import { expect, it } from 'vitest';
import { runKeyValueContract } from './contract';
import { createRedisKeyValue } from './redis';

describeWithBackend('redis', 'Redis adapter', ({ url }) => {
  runKeyValueContract('redis', () => createRedisKeyValue({ url, keyPrefix: 'contract:' }));
});

describeWithOwnServer('redis', 'Redis adapter when Redis goes away', (ownServer) => {
  it('fails fast while Redis is down and recovers when it is back', async () => {
    const server = ownServer();
    const kv = await createRedisKeyValue({ url: server.url });
    await kv.set('k', 'v');
    await server.stop({ kill: true });
    const started = Date.now();
    await expect(kv.get('k')).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await kv.ping()).toBe(false);

    await server.restart();
    await expect.poll(() => kv.ping(), { timeout: 10_000, interval: 100 }).toBe(true);
    await kv.set('k', 'back');
    expect(await kv.get('k')).toBe('back');
    await kv.close();
  }, 20_000);
});

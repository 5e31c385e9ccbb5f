import { describe, expect, it } from 'vitest';
import { metricsPorts } from './metrics-ports';

describe('metricsPorts', () => {
  it('gives each process the next port from the first one, in the order given', async () => {
    const ports = await metricsPorts(['identity', 'data-1', 'data-2', 'gateway'], 9464, () => Promise.reject(new Error('not asked')));
    expect([...ports]).toEqual([
      ['identity', 9464],
      ['data-1', 9465],
      ['data-2', 9466],
      ['gateway', 9467],
    ]);
  });

  it('picks a free port for each process when the first is 0', async () => {
    let next = 40_000;
    const ports = await metricsPorts(['identity', 'data'], 0, async () => next++);
    expect([...ports]).toEqual([
      ['identity', 40_000],
      ['data', 40_001],
    ]);
  });

  it('refuses a first port whose range would pass 65535', async () => {
    await expect(metricsPorts(['a', 'b', 'c'], 65534, async () => 1)).rejects.toThrow('METRICS_PORT 65534 leaves no room for 3 processes');
    await expect(metricsPorts(['a', 'b'], 65534, async () => 1)).resolves.toEqual(new Map([['a', 65534], ['b', 65535]]));
  });
});

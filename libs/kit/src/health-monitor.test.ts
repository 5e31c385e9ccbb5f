import { describe, expect, it } from 'vitest';
import { HealthMonitor } from './health-monitor';

describe('health monitor', () => {
  it('answers one probe state and whether all are up from the latest probes, as the snapshot does', async () => {
    let storeUp = true;
    const monitor = new HealthMonitor();
    monitor.register('store', async () => storeUp, 'embedded');
    monitor.register('bus', async () => true);
    await monitor.refresh();
    expect(monitor.allUp()).toBe(true);
    expect(monitor.state('store')).toEqual(monitor.snapshot().store);
    expect(monitor.state('store')).toMatchObject({ up: true, kind: 'embedded' });
    expect(monitor.state('nothing')).toBeUndefined();

    storeUp = false;
    await monitor.refresh();
    expect(monitor.allUp()).toBe(false);
    expect(monitor.state('store')?.up).toBe(false);
    expect(monitor.state('bus')?.up).toBe(true);
  });

  it('counts a probe that throws as down', async () => {
    const monitor = new HealthMonitor();
    monitor.register('kv', async () => {
      throw new Error('refused');
    });
    await monitor.refresh();
    expect(monitor.allUp()).toBe(false);
    expect(monitor.state('kv')?.up).toBe(false);
  });
});

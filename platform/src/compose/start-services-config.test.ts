import { describe, expect, it } from 'vitest';
import { loadStartServicesConfig } from './start-services-config';

describe('pnpm start:services configuration', () => {
  it('runs in development on port 3000 with a random secret per run and backend data under DATA_DIR', () => {
    const first = loadStartServicesConfig({}, '/home/dev/platform');
    const second = loadStartServicesConfig({}, '/home/dev/platform');
    expect(first).toMatchObject({ nodeEnv: 'development', gatewayPort: 3000, backendDataDir: '/home/dev/platform/.data/services', generatedSecret: true });
    expect(first.metricsPort).toBeUndefined();
    expect(first.principalSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(second.principalSecret).not.toBe(first.principalSecret);
  });

  it('honours PORT, DATA_DIR and a given PRINCIPAL_SECRET', () => {
    const secret = 's'.repeat(40);
    expect(loadStartServicesConfig({ PORT: '8080', DATA_DIR: '/var/lib/platform', PRINCIPAL_SECRET: secret }, '/x')).toMatchObject({ gatewayPort: 8080, backendDataDir: '/var/lib/platform/services', principalSecret: secret, generatedSecret: false });
  });

  it('takes METRICS_PORT as the first process’s metrics port, and names a bad one', () => {
    expect(loadStartServicesConfig({ METRICS_PORT: '9464' }, '/x').metricsPort).toBe(9464);
    expect(loadStartServicesConfig({ METRICS_PORT: '0' }, '/x').metricsPort).toBe(0);
    expect(() => loadStartServicesConfig({ METRICS_PORT: '70000' }, '/x')).toThrow(/METRICS_PORT/);
  });

  it('keeps a development webhook secret under DATA_DIR/services unless ACTIONS_WEBHOOK_SECRET is set or it runs in production', () => {
    expect(loadStartServicesConfig({ DATA_DIR: '/srv/p' }, '/x').webhookSecretFile).toBe('/srv/p/services/webhook-secret');
    expect(loadStartServicesConfig({ ACTIONS_WEBHOOK_SECRET: 'w'.repeat(32) }, '/x').webhookSecretFile).toBeUndefined();
    expect(loadStartServicesConfig({ NODE_ENV: 'production', PRINCIPAL_SECRET: 's'.repeat(40) }, '/x').webhookSecretFile).toBeUndefined();
  });

  it('requires PRINCIPAL_SECRET in production and names a bad PORT', () => {
    expect(() => loadStartServicesConfig({ NODE_ENV: 'production' }, '/x')).toThrow(/PRINCIPAL_SECRET: required with NODE_ENV=production/);
    expect(() => loadStartServicesConfig({ PORT: 'eighty' }, '/x')).toThrow(/PORT/);
  });
});

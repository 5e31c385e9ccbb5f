import { describe, expect, it } from 'vitest';
import { loadVisitorsConfig } from './config';

describe('visitors configuration', () => {
  it('limits public callers per address, per kiosk binding, and keeps a reserve per address', () => {
    expect(loadVisitorsConfig({}).rateLimit).toEqual({ perIp: 60, perKiosk: 600, reservedPerIp: 20, windowMs: 60_000 });
    expect(loadVisitorsConfig({ VISITORS_RATE_LIMIT_PER_PROJECT: '100', VISITORS_RATE_LIMIT_RESERVED_PER_IP: '5' }).rateLimit).toMatchObject({ perKiosk: 100, reservedPerIp: 5 });
  });

  it.each(['VISITORS_RATE_LIMIT_PER_IP', 'VISITORS_RATE_LIMIT_PER_PROJECT', 'VISITORS_RATE_LIMIT_RESERVED_PER_IP'])('names a bad %s', (name) => {
    expect(() => loadVisitorsConfig({ [name]: '0' })).toThrow(name);
    expect(() => loadVisitorsConfig({ [name]: 'many' })).toThrow(name);
  });

  it('caps what a public caller stores per record and per kiosk binding per day', () => {
    expect(loadVisitorsConfig({}).publicWrites).toEqual({ maxDataBytes: 16 * 1024, perKioskPerDay: 3_000 });
    expect(loadVisitorsConfig({ VISITORS_PUBLIC_MAX_DATA_BYTES: '4096', VISITORS_PUBLIC_WRITES_PER_DAY: '500' }).publicWrites).toEqual({ maxDataBytes: 4096, perKioskPerDay: 500 });
  });

  it.each(['VISITORS_PUBLIC_MAX_DATA_BYTES', 'VISITORS_PUBLIC_WRITES_PER_DAY'])('names a bad %s', (name) => {
    expect(() => loadVisitorsConfig({ [name]: '0' })).toThrow(name);
    expect(() => loadVisitorsConfig({ [name]: 'lots' })).toThrow(name);
  });

  it('checks for a due retention occurrence every minute unless VISITORS_RETENTION_CHECK_MS says otherwise', () => {
    expect(loadVisitorsConfig({}).retentionCheckMs).toBe(60_000);
    expect(loadVisitorsConfig({ VISITORS_RETENTION_CHECK_MS: '250' }).retentionCheckMs).toBe(250);
    expect(() => loadVisitorsConfig({ VISITORS_RETENTION_CHECK_MS: 'often' })).toThrow('VISITORS_RETENTION_CHECK_MS');
    expect(() => loadVisitorsConfig({ VISITORS_RETENTION_CHECK_MS: '0' })).toThrow('VISITORS_RETENTION_CHECK_MS');
  });
});

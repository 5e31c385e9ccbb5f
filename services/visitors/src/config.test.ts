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
});

import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from './config';
import { defaultHttpTimeouts, httpTimeoutsEnvSchema, httpTimeoutsFrom } from './http-timeouts';

describe('HTTP timeouts from the environment', () => {
  it('defaults to 10 s for headers, 30 s for the whole request and 120 s of idle connection', () => {
    expect(defaultHttpTimeouts).toEqual({ headersMs: 10_000, requestMs: 30_000, idleMs: 120_000 });
  });

  it('reads each variable', () => {
    const env = { HTTP_HEADERS_TIMEOUT_MS: '2000', HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_IDLE_TIMEOUT_MS: '60000' };
    expect(httpTimeoutsFrom(parseEnv(httpTimeoutsEnvSchema, env))).toEqual({ headersMs: 2_000, requestMs: 5_000, idleMs: 60_000 });
  });

  it('refuses a disabled or unreadable timeout, and headers allowed longer than the whole request', () => {
    expect(() => parseEnv(httpTimeoutsEnvSchema, { HTTP_REQUEST_TIMEOUT_MS: '0' })).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
    expect(() => parseEnv(httpTimeoutsEnvSchema, { HTTP_IDLE_TIMEOUT_MS: 'soon' })).toThrow(/HTTP_IDLE_TIMEOUT_MS/);
    const inverted = parseEnv(httpTimeoutsEnvSchema, { HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' });
    expect(() => httpTimeoutsFrom(inverted)).toThrow(ConfigError);
    expect(() => httpTimeoutsFrom(inverted)).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
  });
});

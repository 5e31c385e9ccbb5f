import { ConfigError } from '@platform/kit';
import { describe, expect, it } from 'vitest';
import { describeStartupFailure, listenFailure, StartupFailure } from './startup-failure';

const settings = { HOST: '127.0.0.1', DATA_DIR: './.data' };

function systemError(fields: Record<string, unknown>): Error {
  return Object.assign(new Error(`${String(fields.syscall)} ${String(fields.code)}`), fields);
}

describe('describeStartupFailure', () => {
  it('names PORT for a port in use or out of reach', () => {
    expect(describeStartupFailure(systemError({ code: 'EADDRINUSE', syscall: 'listen', port: 3000 }), settings)).toBe('port 3000 is in use: set PORT (PORT=0 picks a free one)');
    expect(describeStartupFailure(systemError({ code: 'EACCES', syscall: 'listen', port: 80 }), settings)).toBe('port 80 needs privileges this process does not have: set PORT to 1024 or above');
  });

  it('names HOST for an address not on this machine or a name that does not resolve', () => {
    const expected = 'HOST 10.9.9.9 is not an address of this machine: set HOST (127.0.0.1, or 0.0.0.0 for every interface)';
    expect(describeStartupFailure(systemError({ code: 'EADDRNOTAVAIL', syscall: 'listen', port: 3000 }), { ...settings, HOST: '10.9.9.9' })).toBe(expected);
    expect(describeStartupFailure(systemError({ code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: 'nowhere.invalid' }), { ...settings, HOST: 'nowhere.invalid' })).toMatch(/^HOST nowhere\.invalid .*set HOST/);
  });

  it("names another listener's own variables (the metrics listener's METRICS_PORT and METRICS_HOST), not PORT", () => {
    const metrics = { name: 'metrics port', portVariable: 'METRICS_PORT', hostVariable: 'METRICS_HOST', host: '127.0.0.1' };
    expect(listenFailure(systemError({ code: 'EADDRINUSE', syscall: 'listen', port: 9464 }), metrics)).toBe('metrics port 9464 is in use: set METRICS_PORT (METRICS_PORT=0 picks a free one)');
    expect(listenFailure(systemError({ code: 'EACCES', syscall: 'listen', port: 464 }), metrics)).toBe('metrics port 464 needs privileges this process does not have: set METRICS_PORT to 1024 or above');
    expect(listenFailure(systemError({ code: 'EADDRNOTAVAIL', syscall: 'listen', port: 9464 }), { ...metrics, host: '10.9.9.9' })).toBe(
      'METRICS_HOST 10.9.9.9 is not an address of this machine: set METRICS_HOST (127.0.0.1, or 0.0.0.0 for every interface)',
    );
    expect(listenFailure(new TypeError('x is undefined'), metrics)).toBeUndefined();
  });

  it('names DATA_DIR for a directory another process holds or that cannot be written', () => {
    const inUse = Object.assign(new Error('the data directory .data/kv is in use by process 42'), { code: 'DATA_DIRECTORY_IN_USE' });
    expect(describeStartupFailure(inUse, settings)).toBe('the data directory .data/kv is in use by process 42 (another pnpm start?): stop it, or set DATA_DIR to another directory');
    expect(describeStartupFailure(systemError({ code: 'EACCES', syscall: 'mkdir', path: '.data/kv' }), settings)).toBe(
      'the data directory ./.data cannot be written (EACCES on .data/kv): set DATA_DIR to a writable directory',
    );
  });

  it('passes configuration and backend failures through as they are told', () => {
    expect(describeStartupFailure(new ConfigError(['PORT: too big']), settings)).toBe('Invalid configuration:\n  - PORT: too big');
    expect(describeStartupFailure(new StartupFailure('NATS_URL: cannot connect (CONNECTION_REFUSED)'), settings)).toBe('NATS_URL: cannot connect (CONNECTION_REFUSED)');
  });

  it('knows nothing of other errors (a bug keeps its stack), nor of files outside DATA_DIR', () => {
    expect(describeStartupFailure(new TypeError('x is undefined'), settings)).toBeUndefined();
    expect(describeStartupFailure(systemError({ code: 'EACCES', syscall: 'open', path: '/etc/shadow' }), settings)).toBeUndefined();
    expect(describeStartupFailure(systemError({ code: 'EACCES', syscall: 'open', path: '.data-old/kv' }), settings)).toBeUndefined();
    expect(describeStartupFailure(systemError({ code: 'ECONNRESET', syscall: 'listen', port: 3000 }), settings)).toBeUndefined();
  });
});

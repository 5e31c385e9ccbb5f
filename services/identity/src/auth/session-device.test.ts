import { describe, expect, it } from 'vitest';
import { describeDevice } from './session-device';

describe('describeDevice', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36', 'Chrome 156 on Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox 133 on Windows'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', 'Safari 17 on iOS'],
    ['curl/8.5.0', 'curl 8.5.0'],
    ['my-sync-script/2.1 (+https://example.org)', 'my-sync-script 2'],
    ['node', 'node'],
  ])('names %s as %s', (userAgent, device) => {
    expect(describeDevice(userAgent)).toBe(device);
  });

  it('answers null without a user agent', () => {
    expect(describeDevice(undefined)).toBeNull();
    expect(describeDevice('')).toBeNull();
  });
});

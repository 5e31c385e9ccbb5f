import { describe, expect, it } from 'vitest';
import { addressLimitKey } from './address-limit-key';

describe('addressLimitKey', () => {
  it('keys IPv6 addresses by their /64, however they are written', () => {
    expect(addressLimitKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressLimitKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressLimitKey('2001:0DB8:0001:0002:0:0:0:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressLimitKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressLimitKey('::1')).toBe('::/64');
  });

  it('keys IPv4 and IPv4-mapped IPv6 addresses as the IPv4 address', () => {
    expect(addressLimitKey('192.0.2.7')).toBe('192.0.2.7');
    expect(addressLimitKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressLimitKey('::ffff:c000:207')).toBe('192.0.2.7');
    expect(addressLimitKey('192.0.2.8')).not.toBe(addressLimitKey('192.0.2.7'));
  });

  it('leaves what is no IP address as it is', () => {
    expect(addressLimitKey('unknown')).toBe('unknown');
    expect(addressLimitKey('')).toBe('');
  });
});

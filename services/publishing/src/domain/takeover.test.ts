import { describe, expect, it } from 'vitest';
import { takeoverToken } from './takeover';

describe('takeover tokens', () => {
  const key = Buffer.alloc(32, 1);

  it('are the same for the same project and hostname, 128 bits of hex', () => {
    expect(takeoverToken(key, 'p1', 'shop.example.com')).toBe(takeoverToken(key, 'p1', 'shop.example.com'));
    expect(takeoverToken(key, 'p1', 'shop.example.com')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('differ by project, by hostname and by key', () => {
    const tokens = new Set([
      takeoverToken(key, 'p1', 'shop.example.com'),
      takeoverToken(key, 'p2', 'shop.example.com'),
      takeoverToken(key, 'p1', 'shop.example.org'),
      takeoverToken(Buffer.alloc(32, 2), 'p1', 'shop.example.com'),
    ]);
    expect(tokens.size).toBe(4);
  });
});

import { describe, expect, it } from 'vitest';
import { hostnameSchema } from './hostname';

describe('hostnameSchema', () => {
  it.each([
    ['app.example.com', 'app.example.com'],
    ['Shop.Example.COM', 'shop.example.com'],
    [' app.example.com. ', 'app.example.com'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['my-app.localhost', 'my-app.localhost'],
  ])('accepts %j as %j', (input, normalised) => {
    expect(hostnameSchema.parse(input)).toBe(normalised);
  });

  it.each(['localhost', '1.2.3.4', '-a.example.com', 'a_b.example.com', 'a..example.com', 'bücher.example', 'a.example.com/path', 'user@a.example.com', 'shop.example.com..', '', `${'a'.repeat(64)}.example.com`])(
    'refuses %j',
    (input) => {
      expect(hostnameSchema.safeParse(input).success).toBe(false);
    },
  );
});

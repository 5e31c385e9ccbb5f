import { z } from 'zod';

/**
 * A domain's hostname: DNS labels of letters, digits and hyphens (IDNs in their `xn--` form), at
 * least two labels, not an IP address. Hostnames are case-insensitive and one trailing dot is the
 * same name, so both are normalised away: `Shop.Example.com.` is stored as `shop.example.com`.
 */
export const hostnameSchema = z
  .string()
  .trim()
  .max(254)
  .transform((value) => value.toLowerCase().replace(/\.$/, ''))
  .pipe(
    z
      .hostname('must be a DNS hostname (letters, digits and hyphens per label, e.g. app.example.com)')
      // One trailing dot was taken off above; another would leave a second spelling of the same name.
      .refine((name) => !name.endsWith('.'), 'may end in one dot at most')
      .refine((name) => name.includes('.'), 'needs at least two labels, e.g. app.example.com')
      .refine((name) => !/^\d+$/.test(name.slice(name.lastIndexOf('.') + 1)), 'IP addresses are not hostnames'),
  )
  // The checks above run after the normalisation, so the API description would show only a string:
  // it declares the hostnames they accept (any case, one trailing dot, a top-level label that starts with a letter).
  .meta({ maxLength: 253, pattern: '^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.?$' });

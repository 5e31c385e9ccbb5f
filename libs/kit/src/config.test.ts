import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { booleanFlag, commaList, ConfigError, parseEnv } from './config';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  SERVICES: commaList.default(['all']),
  VERBOSE: booleanFlag.default(false),
});

describe('parseEnv', () => {
  it('applies defaults and treats empty strings as unset', () => {
    expect(parseEnv(schema, { PORT: '' })).toEqual({ PORT: 3000, SERVICES: ['all'], VERBOSE: false });
  });

  it('parses lists and flags', () => {
    expect(parseEnv(schema, { PORT: '8080', SERVICES: 'data, audit', VERBOSE: '1' })).toEqual({ PORT: 8080, SERVICES: ['data', 'audit'], VERBOSE: true });
  });

  it('names every bad variable in one error', () => {
    const attempt = () => parseEnv(schema, { PORT: 'eighty', VERBOSE: 'maybe' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      expect((error as ConfigError).problems.map((p) => p.split(':')[0]).sort()).toEqual(['PORT', 'VERBOSE']);
      expect((error as Error).message).toMatch(/^Invalid configuration:/);
    }
  });
});

import { ConfigError } from '@platform/kit';
import { describe, expect, it } from 'vitest';
import { aiConfigFromEnv } from './config';

describe('aiConfigFromEnv', () => {
  it('is undefined without AI_BASE_URL (empty counts as unset): no built-in provider or key', () => {
    expect(aiConfigFromEnv({})).toBeUndefined();
    expect(aiConfigFromEnv({ AI_BASE_URL: '', AI_MODEL: 'm', AI_API_KEY: 'k' })).toBeUndefined();
  });

  it('reads URL, model, key and timeout, without the trailing slash', () => {
    expect(aiConfigFromEnv({ AI_BASE_URL: 'https://llm.example/v1/', AI_MODEL: 'small', AI_API_KEY: 'k', AI_TIMEOUT_MS: '5000' })).toEqual({
      baseUrl: 'https://llm.example/v1',
      model: 'small',
      apiKey: 'k',
      timeoutMs: 5000,
    });
  });

  it('needs no key (local servers) and defaults the timeout to 60 s', () => {
    expect(aiConfigFromEnv({ AI_BASE_URL: 'http://127.0.0.1:11434/v1', AI_MODEL: 'llama3' })).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3', timeoutMs: 60_000 });
  });

  it.each([
    { case: 'a URL without a model', env: { AI_BASE_URL: 'http://127.0.0.1/v1' }, variable: 'AI_MODEL' },
    { case: 'a URL that is not http(s)', env: { AI_BASE_URL: 'ftp://x/v1', AI_MODEL: 'm' }, variable: 'AI_BASE_URL' },
    { case: 'a timeout that is not a number', env: { AI_BASE_URL: 'http://x/v1', AI_MODEL: 'm', AI_TIMEOUT_MS: 'soon' }, variable: 'AI_TIMEOUT_MS' },
  ])('stops start-up on $case, naming $variable', ({ env, variable }) => {
    expect(() => aiConfigFromEnv(env)).toThrow(ConfigError);
    expect(() => aiConfigFromEnv(env)).toThrow(variable);
  });
});

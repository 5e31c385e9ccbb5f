import { ConfigError } from '@platform/kit';
import { describe, expect, it } from 'vitest';
import { aiConfigFromEnv } from './config';

describe('aiConfigFromEnv', () => {
  it('is undefined without AI_BASE_URL (empty counts as unset): no built-in provider or key', () => {
    expect(aiConfigFromEnv({})).toBeUndefined();
    expect(aiConfigFromEnv({ AI_BASE_URL: '', AI_MODEL: 'm', AI_API_KEY: 'k' })).toBeUndefined();
  });

  it('reads URL, model, key, timeout and call budgets, without the trailing slash', () => {
    expect(
      aiConfigFromEnv({ AI_BASE_URL: 'https://llm.example/v1/', AI_MODEL: 'small', AI_API_KEY: 'k', AI_TIMEOUT_MS: '5000', AI_CALLS_PER_USER_PER_HOUR: '20', AI_CALLS_PER_PROJECT_PER_HOUR: '200' }),
    ).toEqual({
      baseUrl: 'https://llm.example/v1',
      model: 'small',
      apiKey: 'k',
      timeoutMs: 5000,
      callsPerUserPerHour: 20,
      callsPerProjectPerHour: 200,
    });
  });

  it('needs no key (local servers), defaults the timeout to 60 s and the budgets to 100 calls an hour per user, 1,000 per project', () => {
    expect(aiConfigFromEnv({ AI_BASE_URL: 'http://127.0.0.1:11434/v1', AI_MODEL: 'llama3' })).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'llama3',
      timeoutMs: 60_000,
      callsPerUserPerHour: 100,
      callsPerProjectPerHour: 1_000,
    });
  });

  it.each([
    { case: 'a URL without a model', env: { AI_BASE_URL: 'http://127.0.0.1/v1' }, variable: 'AI_MODEL' },
    { case: 'a URL that is not http(s)', env: { AI_BASE_URL: 'ftp://x/v1', AI_MODEL: 'm' }, variable: 'AI_BASE_URL' },
    { case: 'a timeout that is not a number', env: { AI_BASE_URL: 'http://x/v1', AI_MODEL: 'm', AI_TIMEOUT_MS: 'soon' }, variable: 'AI_TIMEOUT_MS' },
    { case: 'a user budget of 0', env: { AI_BASE_URL: 'http://x/v1', AI_MODEL: 'm', AI_CALLS_PER_USER_PER_HOUR: '0' }, variable: 'AI_CALLS_PER_USER_PER_HOUR' },
    { case: 'a project budget that is not a whole number', env: { AI_BASE_URL: 'http://x/v1', AI_MODEL: 'm', AI_CALLS_PER_PROJECT_PER_HOUR: '2.5' }, variable: 'AI_CALLS_PER_PROJECT_PER_HOUR' },
  ])('stops start-up on $case, naming $variable', ({ env, variable }) => {
    expect(() => aiConfigFromEnv(env)).toThrow(ConfigError);
    expect(() => aiConfigFromEnv(env)).toThrow(variable);
  });
});

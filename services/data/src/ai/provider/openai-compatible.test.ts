import { createLogger } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeChatCompletions, type FakeChatCompletions } from '../testing/fake-chat-completions';
import { OpenAiCompatibleProvider } from './openai-compatible';

let fake: FakeChatCompletions;
const logger = createLogger({ level: 'silent' });

beforeAll(async () => {
  fake = await startFakeChatCompletions();
});

afterAll(async () => {
  await fake?.close();
});

describe('OpenAiCompatibleProvider against a chat-completions server on loopback', () => {
  it('sends no Authorization header when no key is configured', async () => {
    const provider = new OpenAiCompatibleProvider({ baseUrl: fake.baseUrl, model: 'local', timeoutMs: 2_000 }, logger);
    await provider.complete({ messages: [{ role: 'user', content: 'hi' }] });
    expect(fake.requests.at(-1)?.headers.authorization).toBeUndefined();
    expect(fake.requests.at(-1)?.body).toEqual({ model: 'local', messages: [{ role: 'user', content: 'hi' }] });
  });

  it('fills in usage when the server reports none and reads a null content as empty', async () => {
    fake.answerWith({ raw: JSON.stringify({ choices: [{ message: { role: 'assistant', content: null } }] }) });
    const provider = new OpenAiCompatibleProvider({ baseUrl: fake.baseUrl, model: 'local', apiKey: 'k', timeoutMs: 2_000 }, logger);
    expect(await provider.complete({ messages: [{ role: 'user', content: 'hi' }] })).toEqual({
      message: { role: 'assistant', content: '' },
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    });
    expect(fake.requests.at(-1)?.headers.authorization).toBe('Bearer k');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeChatCompletions } from './testing/fake-chat-completions';
import { startAiPlatform, type AiPlatform } from './testing/ai-platform';
import type { FakeAnswer } from './testing/fake-chat-completions';

const TIMEOUT_MS = 300;
const hello = { messages: [{ role: 'user', content: 'Hello?' }] };

type Target = { name: string; path: (projectId: string) => string; body: Record<string, unknown> };
const targets: Target[] = [
  { name: 'agent chat', path: (p) => `/api/projects/${p}/ai-agents/helper/chat`, body: hello },
  { name: 'ai-extract', path: (p) => `/api/projects/${p}/types/contacts/ai-extract`, body: { text: 'Ada' } },
  { name: 'help chat', path: () => '/api/help/chat', body: hello },
];

async function aiProject(ai: AiPlatform, token: string): Promise<string> {
  const projectId = await ai.project({ ownerId: 'owner', aiEnabled: true });
  await ai.platform.call('POST', `/api/projects/${projectId}/ai-agents`, { token, body: { id: 'helper', name: 'Helper' } });
  await ai.platform.call('POST', `/api/projects/${projectId}/types`, { token, body: { id: 'contacts', name: 'Contacts', schema: { fields: { name: { type: 'string' } } } } });
  return projectId;
}

describe('provider failures', () => {
  let ai: AiPlatform;
  let owner: string;
  let projectId: string;

  beforeAll(async () => {
    ai = await startAiPlatform({ provider: true, timeoutMs: TIMEOUT_MS });
    owner = await ai.signIn('owner');
    projectId = await aiProject(ai, owner);
  });

  afterAll(async () => {
    await ai?.close();
  });

  const failures: Array<{ case: string; answer: FakeAnswer; status: number; code: string; error: string }> = [
    { case: 'an HTTP 500', answer: { status: 500, body: { error: { message: 'model crashed at /srv/secret/path' } } }, status: 502, code: 'AI_PROVIDER_ERROR', error: 'The AI provider answered HTTP 500' },
    { case: 'an HTTP 401 (bad key)', answer: { status: 401, body: { error: { message: 'Incorrect API key' } } }, status: 502, code: 'AI_PROVIDER_ERROR', error: 'The AI provider answered HTTP 401' },
    { case: 'an HTTP 429', answer: { status: 429, body: { error: { message: 'slow down' } } }, status: 502, code: 'AI_PROVIDER_ERROR', error: 'The AI provider answered HTTP 429' },
    { case: 'a body that is not JSON', answer: { raw: '<html>proxy error</html>' }, status: 502, code: 'AI_PROVIDER_ERROR', error: 'The AI provider answered with something that is not a chat completion' },
    { case: 'JSON without choices', answer: { raw: '{"choices":[]}' }, status: 502, code: 'AI_PROVIDER_ERROR', error: 'The AI provider answered with something that is not a chat completion' },
    { case: 'a dropped connection', answer: { hangUp: true }, status: 502, code: 'AI_PROVIDER_ERROR', error: 'The AI provider could not be reached' },
    { case: 'no answer within the timeout', answer: { delayMs: TIMEOUT_MS * 5, content: 'too late' }, status: 504, code: 'AI_PROVIDER_TIMEOUT', error: `The AI provider did not answer within ${TIMEOUT_MS} ms` },
  ];

  describe.each(targets)('$name', (target) => {
    it.each(failures)('maps $case to $status with a clear error', async ({ answer, status, code, error }) => {
      ai.fake?.answerWith(answer);
      const response = await ai.platform.call('POST', target.path(projectId), { token: owner, body: target.body });
      expect({ status: response.status, body: response.body }).toEqual({ status, body: { error, code } });
    });
  });

  it('keeps serving after every failure', async () => {
    ai.fake?.answerWith({ content: 'still here' });
    const response = await ai.platform.call('POST', targets[0]!.path(projectId), { token: owner, body: hello });
    expect(response.status).toBe(200);
    expect(response.body.message.content).toBe('still here');
  });
});

describe('an unreachable provider', () => {
  let ai: AiPlatform;

  beforeAll(async () => {
    const gone = await startFakeChatCompletions();
    await gone.close();
    ai = await startAiPlatform({ provider: true, baseUrl: gone.baseUrl });
  });

  afterAll(async () => {
    await ai?.close();
  });

  it.each(targets)('$name: 502 saying the provider could not be reached', async (target) => {
    const owner = await ai.signIn('owner');
    const projectId = await aiProject(ai, owner);
    const response = await ai.platform.call('POST', target.path(projectId), { token: owner, body: target.body });
    expect({ status: response.status, body: response.body }).toEqual({ status: 502, body: { error: 'The AI provider could not be reached', code: 'AI_PROVIDER_ERROR' } });
  });
});

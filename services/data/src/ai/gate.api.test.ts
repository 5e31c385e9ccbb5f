import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAiPlatform, type AiPlatform } from './testing/ai-platform';

const ENGLISH = 'AI features are disabled for this project. A project owner can enable them in the project settings.';
const GERMAN = 'KI-Funktionen sind für dieses Projekt deaktiviert. Ein Projektinhaber kann sie in den Projekteinstellungen aktivieren.';

type Endpoint = { name: string; path: (projectId: string) => string; body: (projectId: string) => Record<string, unknown>; headers?: (projectId: string) => Record<string, string> };

const question = { messages: [{ role: 'user', content: 'Hello?' }] };
const endpoints: Endpoint[] = [
  { name: 'agent chat', path: (p) => `/api/projects/${p}/ai-agents/helper/chat`, body: () => question },
  { name: 'ai-extract', path: (p) => `/api/projects/${p}/types/contacts/ai-extract`, body: () => ({ text: 'Ada Lovelace, 36' }) },
  { name: 'help chat (projectId field)', path: () => '/api/help/chat', body: (p) => ({ ...question, projectId: p }) },
  { name: 'help chat (projectId query)', path: (p) => `/api/help/chat?projectId=${p}`, body: () => question },
  { name: 'help chat (project route as Referer)', path: () => '/api/help/chat', body: () => question, headers: (p) => ({ referer: `http://localhost:5173/projects/${p}/editor` }) },
];

/** A project with an agent `helper` and a type `contacts` with a schema, AI on or off. */
async function projectWithAgentAndType(ai: AiPlatform, token: string, aiEnabled: boolean): Promise<string> {
  const projectId = await ai.project({ ownerId: 'owner', aiEnabled, members: [{ userId: 'member' }] });
  const agent = await ai.platform.call('POST', `/api/projects/${projectId}/ai-agents`, { token, body: { id: 'helper', name: 'Helper', instructions: 'Be brief.' } });
  expect(agent.status).toBe(201);
  const type = await ai.platform.call('POST', `/api/projects/${projectId}/types`, {
    token,
    body: { id: 'contacts', name: 'Contacts', schema: { fields: { name: { type: 'string', required: true }, age: { type: 'integer' } } } },
  });
  expect(type.status).toBe(201);
  return projectId;
}

describe('the AI gate with a provider configured', () => {
  let ai: AiPlatform;
  let owner: string;
  let member: string;
  let germanMember: string;
  let stranger: string;
  let enabled: string;
  let disabled: string;

  beforeAll(async () => {
    ai = await startAiPlatform({ provider: true });
    owner = await ai.signIn('owner');
    member = await ai.signIn('member');
    germanMember = await ai.signIn('member', 'de');
    stranger = await ai.signIn('stranger');
    enabled = await projectWithAgentAndType(ai, owner, true);
    disabled = await projectWithAgentAndType(ai, owner, false);
    ai.fake?.answerWith();
  });

  afterAll(async () => {
    await ai?.close();
  });

  const call = (endpoint: Endpoint, projectId: string, token: string | undefined, extra: { headers?: Record<string, string>; body?: unknown } = {}) =>
    ai.platform.call('POST', endpoint.path(projectId), { token, body: extra.body ?? endpoint.body(projectId), headers: { ...endpoint.headers?.(projectId), ...extra.headers } });

  describe.each(endpoints)('$name', (endpoint) => {
    it('answers 403 {error} in English on a disabled project, without calling the provider', async () => {
      const before = ai.fake?.requests.length;
      const response = await call(endpoint, disabled, member);
      expect({ status: response.status, body: response.body }).toEqual({ status: 403, body: { error: ENGLISH } });
      expect(ai.fake?.requests.length).toBe(before);
    });

    it('answers in German for a user whose profile language is de', async () => {
      const response = await call(endpoint, disabled, germanMember);
      expect({ status: response.status, body: response.body }).toEqual({ status: 403, body: { error: GERMAN } });
    });

    it('answers in German for Accept-Language de-DE, in English for en-GB', async () => {
      expect((await call(endpoint, disabled, member, { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' } })).body).toEqual({ error: GERMAN });
      expect((await call(endpoint, disabled, member, { headers: { 'accept-language': 'en-GB,de;q=0.1' } })).body).toEqual({ error: ENGLISH });
    });

    it('lets the request through to the provider on an enabled project', async () => {
      if (endpoint.name === 'ai-extract') ai.fake?.answerWith({ content: '{"name":"Ada","age":36}' });
      const before = ai.fake?.requests.length ?? 0;
      const response = await call(endpoint, enabled, member);
      expect(response.status).toBe(200);
      expect(ai.fake?.requests.length).toBe(before + 1);
    });
  });

  it.each(endpoints.slice(0, 3))('$name: an invalid body on a disabled project still gets 403, and the provider hears nothing', async (endpoint) => {
    const before = ai.fake?.requests.length;
    const invalid = endpoint.name.startsWith('help') ? { projectId: disabled, messages: 'not a list', surprise: true } : { messages: 42, text: 7, surprise: true };
    const response = await call(endpoint, disabled, member, { body: invalid });
    expect({ status: response.status, body: response.body }).toEqual({ status: 403, body: { error: ENGLISH } });
    expect(ai.fake?.requests.length).toBe(before);
  });

  it.each(endpoints.slice(0, 2))('$name: a body that is not even JSON on a disabled project gets 403 (the gate runs before parsing)', async (endpoint) => {
    const response = await fetch(`${ai.platform.url}${endpoint.path(disabled)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${member}`, 'content-type': 'application/json' },
      body: '{"messages": [',
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: ENGLISH });
  });

  it.each(endpoints.slice(0, 3))('$name: the same invalid body on an enabled project is 400 naming the field', async (endpoint) => {
    const before = ai.fake?.requests.length;
    const response = await call(endpoint, enabled, member, { body: endpoint.name.startsWith('help') ? { projectId: enabled, messages: [] } : { messages: [] } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
    expect(response.body.error).toMatch(endpoint.name === 'ai-extract' ? /body/ : /messages/);
    expect(ai.fake?.requests.length).toBe(before);
  });

  it.each(endpoints.slice(0, 3))('$name: 401 without a session, 404 for a stranger to the project', async (endpoint) => {
    expect((await call(endpoint, enabled, undefined)).status).toBe(401);
    const stranger404 = await call(endpoint, disabled, stranger);
    expect(stranger404.status).toBe(404);
    expect(stranger404.body.code).toBe('PROJECT_NOT_FOUND');
  });

  it('help chat without a project is not gated', async () => {
    const response = await ai.platform.call('POST', '/api/help/chat', { token: stranger, body: question });
    expect(response.status).toBe(200);
  });

  it('help chat ignores a Referer naming a project the caller cannot see', async () => {
    const response = await ai.platform.call('POST', '/api/help/chat', { token: stranger, body: question, headers: { referer: `http://localhost/projects/${disabled}` } });
    expect(response.status).toBe(200);
  });

  it('help chat: an explicit projectId wins over the Referer', async () => {
    const response = await ai.platform.call('POST', '/api/help/chat', { token: member, body: { ...question, projectId: disabled }, headers: { referer: `http://localhost/projects/${enabled}` } });
    expect(response.status).toBe(403);
  });
});

describe('the AI gate without a provider', () => {
  let ai: AiPlatform;
  let owner: string;
  let enabled: string;
  let disabled: string;

  beforeAll(async () => {
    ai = await startAiPlatform({ provider: false });
    owner = await ai.signIn('owner');
    enabled = await projectWithAgentAndType(ai, owner, true);
    disabled = await projectWithAgentAndType(ai, owner, false);
  });

  afterAll(async () => {
    await ai?.close();
  });

  it.each(endpoints)('$name: 501 {error} saying AI is not configured, once past the gate', async (endpoint) => {
    const response = await ai.platform.call('POST', endpoint.path(enabled), { token: owner, body: endpoint.body(enabled), headers: endpoint.headers?.(enabled) });
    expect(response.status).toBe(501);
    expect(response.body).toEqual({ error: 'AI is not configured on this server.', code: 'AI_NOT_CONFIGURED' });
  });

  it.each(endpoints)('$name: the gate still comes first (403 on a disabled project)', async (endpoint) => {
    const response = await ai.platform.call('POST', endpoint.path(disabled), { token: owner, body: endpoint.body(disabled), headers: endpoint.headers?.(disabled) });
    expect({ status: response.status, body: response.body }).toEqual({ status: 403, body: { error: ENGLISH } });
  });

  it('501 for the help chat without a project, in German for a German user', async () => {
    const response = await ai.platform.call('POST', '/api/help/chat', { token: owner, body: question, headers: { 'accept-language': 'de' } });
    expect(response.status).toBe(501);
    expect(response.body.error).toBe('KI ist auf diesem Server nicht eingerichtet.');
  });

  it('agents can still be managed while AI is off or unconfigured', async () => {
    const list = await ai.platform.call('GET', `/api/projects/${disabled}/ai-agents`, { token: owner });
    expect(list.status).toBe(200);
    expect(list.body.items.map((agent: { id: string }) => agent.id)).toEqual(['helper']);
  });
});

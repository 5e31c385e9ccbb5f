import { resolve } from 'node:path';
import { createMemoryKeyValue, type KeyValue } from '@platform/kv';
import { platformLlmText, widgetRegistry, widgetsLlmText } from '@platform/widgets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentGuideSections } from './agent-guide';
import { startTestGateway, type TestGateway } from './testing';

/** A session store that is down: any session lookup would fail with 503. */
function unreachableSessions(): KeyValue {
  const inner = createMemoryKeyValue();
  return { ...inner, kind: inner.kind, get: async () => Promise.reject(new Error('connection refused')) };
}

let platform: TestGateway;

beforeAll(async () => {
  platform = await startTestGateway({ services: [], kv: unreachableSessions(), guidesRoot: resolve(__dirname, '../../../docs') });
});

afterAll(async () => {
  await platform?.close();
});

describe('documentation for agents through the gateway', () => {
  it.each([
    ['/llm.txt', () => platformLlmText(widgetRegistry, agentGuideSections)],
    ['/docs/widgets/llm.txt', () => widgetsLlmText(widgetRegistry)],
  ])('GET %s answers the registry-generated text as text/plain; charset=utf-8 without a session', async (path, expected) => {
    const response = await platform.call('GET', path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.body).toBe(expected());
  });

  it.each(['/llm.txt', '/docs/widgets/llm.txt'])('GET %s skips the session store (answers while it is down, even with a token)', async (path) => {
    expect((await platform.call('GET', path, { token: 'some-unknown-token' })).status).toBe(200);
    expect((await platform.call('GET', '/api/users/x', { token: 'some-unknown-token' })).status).toBe(503);
  });

  it('/llm.txt tells how to sign in and sync and where the guides are, naming only guides that exist', async () => {
    const text = (await platform.call('GET', '/llm.txt')).body as string;
    expect([...text.matchAll(/^## (.+)$/gm)].map((match) => match[1])).toEqual(['Docs', 'Sign in', 'Sync', 'Guides', 'Widgets']);
    for (const route of ['POST /api/auth/register', 'POST /api/auth/login', 'Authorization: Bearer <token>', 'GET /api/realtime/token', 'GET .../data?updatedAt=', '`@platform/sync-client`', '[/api/docs](/api/docs)']) {
      expect(text).toContain(route);
    }
    const guides = [...text.matchAll(/\]\((\/docs\/[a-z-]+\.md)\)/g)].map((match) => match[1]!);
    expect(guides).toEqual(expect.arrayContaining(['/docs/interface.md', '/docs/identity.md', '/docs/sync.md', '/docs/data.md', '/docs/sync-client.md']));
    for (const guide of guides) expect((await platform.call('GET', guide)).status, guide).toBe(200);
  });

  it('the widget document lists exactly the catalogue widgets, and /llm.txt links to it', async () => {
    const widgets = (await platform.call('GET', '/docs/widgets/llm.txt')).body as string;
    expect([...widgets.matchAll(/^## (\S+)$/gm)].map((match) => match[1])).toEqual(['CheckIn', 'StreamVideo']);
    expect((await platform.call('GET', '/llm.txt')).body).toContain('(/docs/widgets/llm.txt)');
  });
});

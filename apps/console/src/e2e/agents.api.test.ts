import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeChatCompletions, type FakeChatCompletions } from '../../../../services/data/src/ai/testing/fake-chat-completions';
import { poll, register, screenshot, screenshotFailures, slowReads, startConsolePlatform, type Account, type ConsolePlatform } from './console-platform';

let fake: FakeChatCompletions;
let platform: ConsolePlatform;
let owner: Account;

beforeAll(async () => {
  fake = await startFakeChatCompletions();
  platform = await startConsolePlatform({ allInOne: { env: { AI_BASE_URL: fake.baseUrl, AI_MODEL: 'fake-model' } } });
  owner = await register(platform, 'Ada', 'agents');
}, 180_000);

afterAll(async () => {
  await platform?.close();
  await fake?.close();
});

screenshotFailures(() => platform, 'agents');

const chatRequests = () => fake.requests.filter((request) => request.path === '/v1/chat/completions');

describe('AI agents in the console', () => {
  it('an owner makes an agent, chats with it, changes its model options, is told when AI is off, and deletes it', async () => {
    const projectId = (await platform.call('POST', '/api/projects', { token: owner.token, body: { name: 'Order desk' } })).body.id as string;
    expect((await platform.call('PATCH', `/api/projects/${projectId}/ai-settings`, { token: owner.token, body: { aiEnabled: true } })).status).toBe(200);
    const page = await platform.openPage({ token: owner.token });
    await page.goto(`/console/projects/${encodeURIComponent(projectId)}/agents`);
    await poll(() => page.getByRole('main').textContent()).toContain('No agent yet: create one.');

    // A name is needed: refused beside the field, nothing made.
    await page.getByRole('button', { name: 'New agent' }).click();
    const form = page.getByRole('form', { name: 'New agent' });
    await form.getByRole('button', { name: 'Create agent' }).click();
    await poll(() => form.getByRole('alert').textContent()).toBe('Must not be empty');
    expect(await form.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    expect((await platform.call('GET', `/api/projects/${projectId}/ai-agents`, { token: owner.token })).body.items).toEqual([]);
    await form.getByLabel('Name').fill('Order helper');
    await form.getByLabel('Instructions').fill('You answer questions about orders, briefly.');
    await screenshot(page, 'agents-01-new');
    await form.getByRole('button', { name: 'Create agent' }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Order helper');

    // A conversation: each message sends the whole of it, after the agent's instructions.
    const chat = page.getByRole('region', { name: 'Chat with Order helper' });
    fake.answerWith({ content: 'Which order do you mean?' }, { content: 'Order 7 ships tomorrow.' });
    await chat.getByRole('textbox', { name: 'Message' }).fill('Where is my order?');
    await chat.getByRole('button', { name: 'Send' }).click();
    const conversation = chat.getByRole('list', { name: 'Conversation' });
    await poll(() => conversation.getByRole('listitem').allTextContents()).toEqual(['YouWhere is my order?', 'Order helperWhich order do you mean?']);
    await chat.getByRole('textbox', { name: 'Message' }).fill('Order 7');
    await chat.getByRole('button', { name: 'Send' }).click();
    await poll(() => conversation.getByRole('listitem').count()).toBe(4);
    expect(await conversation.getByRole('listitem').last().textContent()).toBe('Order helperOrder 7 ships tomorrow.');
    expect(chatRequests().at(-1)!.body).toMatchObject({
      model: 'fake-model',
      messages: [
        { role: 'system', content: 'You answer questions about orders, briefly.' },
        { role: 'user', content: 'Where is my order?' },
        { role: 'assistant', content: 'Which order do you mean?' },
        { role: 'user', content: 'Order 7' },
      ],
    });
    await screenshot(page, 'agents-02-chat');

    // Model options: a temperature out of range is refused beside it and nothing changes; then saved.
    const settings = page.getByRole('form', { name: 'Agent' });
    await settings.getByLabel(/^Temperature/).fill('5');
    await settings.getByRole('button', { name: 'Save agent' }).click();
    await poll(() => settings.getByRole('alert').textContent()).toBe('Invalid modelOptions.temperature: must be at most 2');
    expect(await settings.getByLabel(/^Temperature/).getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'agents-03-settings-refused');
    const agentId = new URL(page.url()).pathname.split('/').at(-1)!;
    const unchanged = (await platform.call('GET', `/api/projects/${projectId}/ai-agents/${agentId}`, { token: owner.token })).body;
    expect(unchanged.revision).toBe(0);
    expect(unchanged).not.toHaveProperty('modelOptions.temperature');
    await settings.getByLabel(/^Temperature/).fill('0.3');
    await settings.getByLabel(/^Model/).fill('fake-large');
    await settings.getByRole('button', { name: 'Save agent' }).click();
    await poll(() => page.getByRole('form', { name: 'Agent' }).getByRole('status').textContent()).toBe('Saved.');
    expect((await platform.call('GET', `/api/projects/${projectId}/ai-agents/${agentId}`, { token: owner.token })).body).toMatchObject({ revision: 1, modelOptions: { model: 'fake-large', temperature: 0.3 } });
    // Saved again at once while reading the agent is slow: "Saved." comes once the screen holds the saved revision, so the next save builds on it.
    const agentUrl = `**/api/projects/*/ai-agents/${agentId}`;
    await slowReads(page, agentUrl);
    for (const [revision, model] of [[2, 'fake-small'], [3, 'fake-large']] as const) {
      await settings.getByLabel(/^Model/).fill(model);
      await settings.getByRole('button', { name: 'Save agent' }).click();
      await poll(() => settings.getByRole('status').textContent()).toBe('Saved.');
      expect(await settings.getByRole('alert').count()).toBe(0);
      expect((await platform.call('GET', `/api/projects/${projectId}/ai-agents/${agentId}`, { token: owner.token })).body).toMatchObject({ revision, modelOptions: { model } });
    }
    await page.unroute(agentUrl);
    await chat.getByRole('button', { name: 'New conversation' }).click();
    await chat.getByRole('textbox', { name: 'Message' }).fill('Hello');
    await chat.getByRole('button', { name: 'Send' }).click();
    await poll(() => conversation.getByRole('listitem').count()).toBe(2);
    expect(chatRequests().at(-1)!.body).toMatchObject({ model: 'fake-large', temperature: 0.3, messages: [{ role: 'system' }, { role: 'user', content: 'Hello' }] });

    // AI switched off: the server's words, the message kept to send again, no provider call.
    expect((await platform.call('PATCH', `/api/projects/${projectId}/ai-settings`, { token: owner.token, body: { aiEnabled: false } })).status).toBe(200);
    const calls = chatRequests().length;
    await chat.getByRole('textbox', { name: 'Message' }).fill('Still there?');
    await chat.getByRole('button', { name: 'Send' }).click();
    await poll(() => chat.getByRole('alert').textContent()).toBe('Not answered: AI features are disabled for this project. A project owner can enable them in the project settings.');
    expect(await chat.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('Still there?');
    expect(await conversation.getByRole('listitem').count()).toBe(2);
    expect(chatRequests()).toHaveLength(calls);
    await screenshot(page, 'agents-04-ai-off');

    await page.getByRole('button', { name: 'Delete agent' }).click();
    await page.getByRole('button', { name: 'Delete for good' }).click();
    await poll(() => page.getByRole('main').textContent()).toContain('No agent yet: create one.');
    // Soft-deleted, as every entity: its tombstone and history stay.
    expect((await platform.call('GET', `/api/projects/${projectId}/ai-agents/${agentId}`, { token: owner.token })).body.deletedAt).toEqual(expect.any(Number));
    expect(platform.pageErrors).toEqual([]);
  }, 90_000);

  it('fills a new document from pasted text when AI is on: the fields land in the form to check, and a reading the schema refuses says so', async () => {
    const projectId = (await platform.call('POST', '/api/projects', { token: owner.token, body: { name: 'Inbox' } })).body.id as string;
    const schema = { type: 'object', properties: { customer: { type: 'string' }, total: { type: 'number' } }, required: ['customer'] };
    expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner.token, body: { id: 'orders', name: 'Orders', schema } })).status).toBe(201);
    expect((await platform.call('PATCH', `/api/projects/${projectId}/ai-settings`, { token: owner.token, body: { aiEnabled: true } })).status).toBe(200);
    const page = await platform.openPage({ token: owner.token });
    await page.goto(`/console/projects/${encodeURIComponent(projectId)}/types/orders`);
    await page.getByRole('button', { name: 'New document' }).click();
    const section = page.getByRole('region', { name: 'New document' });
    const fill = section.getByRole('form', { name: 'Fill from text' });

    // A reading the type's schema refuses: the server's words, the form left empty.
    fake.answerWith({ content: '{"total": "twelve"}' });
    await fill.getByLabel(/^Text to read/).fill('Ada wants twelve');
    await fill.getByRole('button', { name: 'Fill the form' }).click();
    await poll(() => fill.getByRole('alert').textContent()).toMatch(/^Not filled: The model's answer does not match the type schema/);
    expect(await section.getByLabel('customer', { exact: true }).inputValue()).toBe('');

    fake.answerWith({ content: '{"customer": "Ada Lovelace", "total": 12}' });
    await fill.getByLabel(/^Text to read/).fill('Order from Ada Lovelace, 12 pounds in all');
    await fill.getByRole('button', { name: 'Fill the form' }).click();
    await poll(() => section.getByLabel('customer', { exact: true }).inputValue()).toBe('Ada Lovelace');
    expect(await section.getByLabel('total', { exact: true }).inputValue()).toBe('12');
    expect(chatRequests().at(-1)!.body.messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('Order from Ada Lovelace') });
    expect((await platform.call('GET', `/api/projects/${projectId}/types/orders/data?updatedAt=0`, { token: owner.token })).body.items).toEqual([]);
    await screenshot(page, 'agents-05-fill-from-text');
    await section.getByRole('button', { name: 'Save' }).click();
    const grid = page.getByRole('table', { name: 'Documents of orders' });
    await poll(() => grid.getAttribute('aria-rowcount')).toBe('2');
    await poll(async () => (await platform.call('GET', `/api/projects/${projectId}/types/orders/data?updatedAt=0`, { token: owner.token })).body.items).toEqual([expect.objectContaining({ customer: 'Ada Lovelace', total: 12 })]);
    expect(platform.pageErrors).toEqual([]);
  }, 60_000);

  it('answers questions about the platform on the Help screen, from the guides', async () => {
    const page = await platform.openPage({ token: owner.token });
    await page.goto('/console/projects');
    await page.getByRole('banner').getByRole('link', { name: 'Help' }).click();
    const help = page.getByRole('region', { name: 'Ask about the platform' });
    fake.answerWith({ content: 'Set the type’s update rule to the editors’ permission (Batch access).' });
    await help.getByRole('textbox', { name: 'Message' }).fill('How do I let only editors change a type?');
    await help.getByRole('button', { name: 'Send' }).click();
    await poll(() => help.getByRole('list', { name: 'Conversation' }).getByRole('listitem').last().textContent()).toBe('HelpSet the type’s update rule to the editors’ permission (Batch access).');
    const asked = chatRequests().at(-1)!.body.messages as Array<{ role: string; content: string }>;
    expect(asked[0]!.role).toBe('system');
    expect(asked[0]!.content).toContain('/api/projects/{projectId}/types');
    expect(asked.at(-1)).toEqual({ role: 'user', content: 'How do I let only editors change a type?' });
    expect(await page.getByRole('link', { name: 'the API' }).getAttribute('href')).toBe('/api/docs');
    await screenshot(page, 'agents-06-help');
    expect(platform.pageErrors).toEqual([]);
  }, 60_000);
});

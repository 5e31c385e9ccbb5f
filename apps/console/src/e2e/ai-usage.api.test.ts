import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeChatCompletions, type FakeChatCompletions } from '../../../../services/data/src/ai/testing/fake-chat-completions';
import { poll, register, screenshot, screenshotFailures, startConsolePlatform, type Account, type ConsolePlatform } from './console-platform';

const HOUR_MS = 60 * 60 * 1000;

let fake: FakeChatCompletions;
let platform: ConsolePlatform;
let owner: Account;
let member: Account;

beforeAll(async () => {
  // The budgets are counted in clock hours: a test started just before an hour ends would see them start again.
  const left = HOUR_MS - (Date.now() % HOUR_MS);
  if (left < 30_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
  fake = await startFakeChatCompletions();
  platform = await startConsolePlatform({ allInOne: { env: { AI_BASE_URL: fake.baseUrl, AI_MODEL: 'fake-model', AI_CALLS_PER_USER_PER_HOUR: '5', AI_CALLS_PER_PROJECT_PER_HOUR: '40' } } });
  owner = await register(platform, 'Ada', 'ai-usage');
  member = await register(platform, 'Bea', 'ai-usage');
}, 180_000);

afterAll(async () => {
  await platform?.close();
  await fake?.close();
});

screenshotFailures(() => platform, 'ai-usage');

describe('AI calls on the project settings', () => {
  it("shows each member this hour's calls against their own budget and the project's, and when they start again", async () => {
    const projectId = (await platform.call('POST', '/api/projects', { token: owner.token, body: { name: 'Answers' } })).body.id as string;
    expect((await platform.call('PATCH', `/api/projects/${projectId}/ai-settings`, { token: owner.token, body: { aiEnabled: true } })).status).toBe(200);
    const invited = await platform.call('POST', `/api/projects/${projectId}/members`, { token: owner.token, body: { userId: member.id, permissions: [] } });
    expect((await platform.call('POST', `/api/me/invitations/${invited.body.id}/accept`, { token: member.token })).status).toBe(200);
    const ask = (token: string) => platform.call('POST', '/api/help/chat', { token, body: { projectId, messages: [{ role: 'user', content: 'How do I add a type?' }] } });
    for (const token of [owner.token, owner.token, member.token]) expect((await ask(token)).status).toBe(200);

    const page = await platform.openPage({ token: owner.token });
    await page.goto(`/console/projects/${encodeURIComponent(projectId)}/settings`);
    const usage = page.getByLabel('AI calls this hour');
    await poll(() => usage.textContent()).toMatch(/^This hour: 3 of 40 AI calls in this project, 2 of 5 of yours\. The budgets start again at \d{1,2}:00( [AP]M)?\.$/);
    await screenshot(page, 'ai-usage-01-settings');

    const memberPage = await platform.openPage({ token: member.token });
    await memberPage.goto(`/console/projects/${encodeURIComponent(projectId)}/settings`);
    await poll(() => memberPage.getByLabel('AI calls this hour').textContent()).toContain('3 of 40 AI calls in this project, 1 of 5 of yours.');
    expect(platform.pageErrors).toEqual([]);
  }, 60_000);
});

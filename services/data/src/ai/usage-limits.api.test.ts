import { createMemoryKeyValue, type KeyValue } from '@platform/kv';
import { metricsText } from '@platform/telemetry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAiPlatform, type AiPlatform } from './testing/ai-platform';

const HOUR_MS = 60 * 60 * 1000;
const question = { messages: [{ role: 'user', content: 'Hello?' }] };

/** The budgets are counted in clock-hour windows: a test that started just before an hour ends would see them start again. */
async function awayFromHourEnd(): Promise<void> {
  const left = HOUR_MS - (Date.now() % HOUR_MS);
  if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

const refusals = async (limit: string) => Number(new RegExp(`platform_ai_rate_limited_total\\{limit="${limit}"\\} (\\d+)`).exec(await metricsText())?.[1] ?? 0);

describe('AI call budgets (AI_CALLS_PER_USER_PER_HOUR, AI_CALLS_PER_PROJECT_PER_HOUR)', () => {
  let ai: AiPlatform;

  beforeAll(async () => {
    await awayFromHourEnd();
    ai = await startAiPlatform({ provider: true, env: { AI_CALLS_PER_USER_PER_HOUR: '2', AI_CALLS_PER_PROJECT_PER_HOUR: '3' } });
    ai.fake?.answerWith();
  });
  afterAll(async () => {
    await ai?.close();
  });

  it("refuses a user's calls past their budget and the project's past its own, with Retry-After, before the provider is asked", async () => {
    const owner = await ai.signIn('owner');
    const member = await ai.signIn('member');
    const outsider = await ai.signIn('outsider');
    const projectId = await ai.project({ ownerId: 'owner', aiEnabled: true, members: [{ userId: 'member' }] });
    expect((await ai.platform.call('POST', `/api/projects/${projectId}/ai-agents`, { token: owner, body: { id: 'helper', name: 'Helper' } })).status).toBe(201);
    const chat = (token: string, body: unknown = question) => ai.platform.call('POST', `/api/projects/${projectId}/ai-agents/helper/chat`, { token, body });
    const asked = () => ai.fake!.requests.length;
    const [userRefusals, projectRefusals] = [await refusals('user'), await refusals('project')];

    expect((await chat(owner)).status).toBe(200);
    expect((await ai.platform.call('POST', '/api/help/chat', { token: owner, body: { ...question, projectId } })).status).toBe(200);
    const before = asked();
    const spent = await chat(owner);
    expect(spent).toMatchObject({ status: 429, body: { code: 'AI_RATE_LIMITED', details: { limit: 'user' }, error: expect.stringMatching(/^Too many AI requests: at most 2 an hour for each user\. Try again in \d+ minutes?\.$/) } });
    const retryAfter = Number(spent.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3_600);
    expect(spent.body.details.retryAfterSeconds).toBe(retryAfter);
    expect(asked()).toBe(before);
    // A request that is refused anyway is not counted against anything: bad bodies stay 400.
    expect((await chat(owner, { messages: 'not a list' })).status).toBe(400);

    // The owner's two calls count for the project too: the member's first passes, the second meets the project's budget.
    expect((await chat(member)).status).toBe(200);
    const projectSpent = await chat(member);
    expect(projectSpent).toMatchObject({ status: 429, body: { code: 'AI_RATE_LIMITED', details: { limit: 'project' }, error: expect.stringContaining('at most 3 an hour for all its members') } });
    expect(asked()).toBe(before + 1);

    // Someone outside the project still has their own budget for the help chat.
    expect((await ai.platform.call('POST', '/api/help/chat', { token: outsider, body: question })).status).toBe(200);
    expect(await refusals('user')).toBe(userRefusals + 1);
    expect(await refusals('project')).toBe(projectRefusals + 1);

    // What each member sees of this hour: the calls made (refused ones were given back).
    const usage = (token?: string) => ai.platform.call('GET', `/api/projects/${projectId}/ai-usage`, { token });
    const windowEndsAt = (Math.floor(Date.now() / HOUR_MS) + 1) * HOUR_MS;
    expect((await usage(owner)).body).toEqual({ configured: true, windowEndsAt, you: { calls: 2, limit: 2 }, project: { calls: 3, limit: 3 } });
    expect((await usage(member)).body).toEqual({ configured: true, windowEndsAt, you: { calls: 1, limit: 2 }, project: { calls: 3, limit: 3 } });
    expect((await usage(outsider)).status).toBe(404);
    expect((await usage()).status).toBe(401);
  });
});

describe('GET .../ai-usage without a provider', () => {
  it('says no provider is configured, to members only', async () => {
    const bare = await startAiPlatform({ provider: false });
    try {
      const projectId = await bare.project({ ownerId: 'owner', aiEnabled: true });
      expect(await bare.platform.call('GET', `/api/projects/${projectId}/ai-usage`, { token: await bare.signIn('owner') })).toMatchObject({ status: 200, body: { configured: false } });
      expect((await bare.platform.call('GET', `/api/projects/${projectId}/ai-usage`, { token: await bare.signIn('stranger') })).status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});

describe('AI calls while the key-value store cannot count', () => {
  it('refuses them with 503 AI_BUDGETS_UNAVAILABLE before the provider is asked, and counts again once the store is back', async () => {
    const store = createMemoryKeyValue();
    const broken = { counting: true };
    // The sessions read and write as usual; only counting fails.
    const kv: KeyValue = Object.assign(Object.create(store) as KeyValue, {
      increment: (key: string, options: Parameters<KeyValue['increment']>[1]) => (broken.counting ? Promise.reject(new Error('connection refused')) : store.increment(key, options)),
    });
    const ai = await startAiPlatform({ provider: true, kv });
    try {
      ai.fake?.answerWith();
      const token = await ai.signIn('owner');
      const projectId = await ai.project({ ownerId: 'owner', aiEnabled: true });
      const ask = () => ai.platform.call('POST', '/api/help/chat', { token, body: { ...question, projectId } });
      const usage = () => ai.platform.call('GET', `/api/projects/${projectId}/ai-usage`, { token });
      expect(await ask()).toMatchObject({ status: 503, body: { code: 'AI_BUDGETS_UNAVAILABLE', error: expect.stringContaining('try again shortly') } });
      expect((await usage()).status).toBe(503);
      expect(ai.fake!.requests).toHaveLength(0);
      broken.counting = false;
      expect((await ask()).status).toBe(200);
      expect((await usage()).body).toMatchObject({ you: { calls: 1 }, project: { calls: 1 } });
    } finally {
      await ai.close();
    }
  });
});

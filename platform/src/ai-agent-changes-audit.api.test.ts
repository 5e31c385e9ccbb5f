import { beforeAll, describe, expect, it, vi } from 'vitest';
import { registerAccount } from './testing/platform-http';
import { allInOneForTests } from './testing/platforms-on-disk';
import { succeeding } from './testing/populated-project';

/**
 * AI agents in the audit trail, all-in-one through the gateway: an agent is an entity of the
 * project (docs/ai.md), so each create, change and deletion is an item, named as an AI agent as
 * types and applications are named by their kind, and selected by `typeId=ai-agents`.
 */
const { call } = allInOneForTests('ai-agent-changes-audit-');
const as = succeeding(call);
type Account = { token: string; userId: string };
let bea: Account;
let projectId: string;

beforeAll(async () => {
  bea = (await registerAccount(call, 'bea')) as Account;
  await as(bea, 'PUT', '/api/me/profile', { displayName: 'Bea Owner' });
  projectId = (await as(bea, 'POST', '/api/projects', { name: 'Assistants' })).id;
  await as(bea, 'PATCH', `/api/projects/${projectId}/ai-settings`, { aiEnabled: true });
});

describe('AI agents in the audit trail', () => {
  it('records each create, change and deletion as an AI agent, with its name at that revision', async () => {
    const agent = await as(bea, 'POST', `/api/projects/${projectId}/ai-agents`, { name: 'Support' });
    await as(bea, 'PATCH', `/api/projects/${projectId}/ai-agents/${agent.id}`, { modifier: { $set: { name: 'Support desk' } }, baseRevision: 0 });
    await as(bea, 'DELETE', `/api/projects/${projectId}/ai-agents/${agent.id}`);
    let items: any[] = [];
    await vi.waitFor(
      async () => {
        items = (await as(bea, 'GET', `/api/projects/${projectId}/audit-trail?typeId=ai-agents`)).items;
        expect(items).toHaveLength(3);
      },
      { timeout: 10_000 },
    );
    const common = { entityId: agent.id, entityTypeId: 'ai-agents', entityTypeName: 'AI agent', userId: bea.userId, userDisplayName: 'Bea Owner' };
    expect(items.map(({ timestamp, ...item }) => item)).toEqual([
      { ...common, revision: 2, entityTitle: 'Support desk', changeDescription: 'audit.deleted' },
      { ...common, revision: 1, entityTitle: 'Support desk', changeDescription: 'audit.updated' },
      { ...common, revision: 0, entityTitle: 'Support', changeDescription: 'audit.created' },
    ]);
  });
});

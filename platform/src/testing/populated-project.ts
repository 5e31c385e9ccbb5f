import { expect, vi } from 'vitest';
import type { HttpCall } from './platform-http';

type Account = { token: string; userId: string };

/** Calls as `who` and answers the body; any answer but a success stops the test's setup with its text. */
export function succeeding(call: HttpCall) {
  return async (who: { token?: string }, method: string, path: string, body?: unknown): Promise<any> => {
    const answer = await call(method, path, who.token, body);
    if (answer.status >= 300) throw new Error(`setup: ${method} ${path} answered ${answer.status} ${answer.text}`);
    return answer.body;
  };
}

/**
 * A project holding something of every service: `member` joined, an invitation by email pending,
 * types with the document `notes/kept`, an action that ran on it, a kiosk application published
 * on the verified `hostname` (the platform must run with PUBLISHING_DOMAIN_VERIFICATION=off), a
 * visitor checked in, and the audit trail of it all. Answers the project id.
 */
export async function populatedProject(call: HttpCall, people: { owner: Account; member: Account }, name: string, hostname: string): Promise<string> {
  const as = succeeding(call);
  const { owner, member } = people;
  const projectId = (await as(owner, 'POST', '/api/projects', { name })).id;
  const p = `/api/projects/${projectId}`;
  await as(member, 'POST', `/api/me/invitations/${(await as(owner, 'POST', `${p}/members`, { userId: member.userId })).id}/accept`);
  await as(owner, 'POST', `${p}/members`, { email: `pending-${projectId}@example.org` });
  for (const id of ['notes', 'guests', 'guest-events', 'contacts']) await as(owner, 'POST', `${p}/types`, { id, name: id });
  await as(owner, 'POST', `${p}/actions`, { title: 'On new notes', triggers: [{ id: 't', triggerName: 'documentCreated', configuration: { typeId: 'notes' } }], blocks: [] });
  await as(owner, 'POST', `${p}/types/notes/data`, { id: 'kept', title: 'written before' });
  const checkIn = { visitorTypeId: 'guests', visitorEventTypeId: 'guest-events', contactsTypeId: 'contacts' };
  const kiosk = { path: '/', widgetTree: { rootWidgetId: 'root', widgets: { root: { id: 'root', name: 'CheckIn', data: checkIn } } } };
  const application = await as(owner, 'POST', `${p}/applications`, { title: { en: 'Kiosk' }, routes: [kiosk] });
  await as(owner, 'POST', `${p}/applications/${application.id}/publish`);
  const domain = await as(owner, 'POST', `${p}/domains`, { hostname, targetType: 'application', targetId: application.id });
  await as(owner, 'POST', `${p}/domains/${domain.id}/verify`);
  await as({}, 'POST', `${p}/visitors`, { collectionName: `tenant-${projectId}-guests`, data: { name: 'Ada' } });
  const action = (await as(owner, 'GET', `${p}/actions`)).items[0];
  await vi.waitFor(async () => expect((await as(owner, 'GET', `${p}/actions/${action.id}/runs`)).items.length).toBeGreaterThan(0), { timeout: 10_000 });
  return projectId;
}

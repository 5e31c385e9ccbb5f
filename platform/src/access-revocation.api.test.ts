import { beforeAll, describe, expect, it, vi } from 'vitest';
import { openSyncStream } from './testing/platform-http';
import { allInOneForTests } from './testing/platforms-on-disk';

/**
 * Issue 24: a change of membership or project settings is in force for every request that
 * starts after the change's answer, in every service of the all-in-one shape.
 */
const { platform, call } = allInOneForTests('access-revocation-');
let projectId: string;
const users: Record<'owner' | 'member', { token: string; userId: string }> = { owner: { token: '', userId: '' }, member: { token: '', userId: '' } };

async function asOwner(method: string, path: string, body?: unknown): Promise<any> {
  const answer = await call(method, path, users.owner.token, body);
  if (answer.status >= 300) throw new Error(`setup: ${method} ${path} answered ${answer.status} ${answer.text}`);
  return answer.body;
}

async function joinProject(projectPath: string, who: 'member', permissions: string[] = []): Promise<void> {
  const invitation = await asOwner('POST', `${projectPath}/members`, { userId: users[who].userId, permissions });
  expect((await call('POST', `/api/me/invitations/${invitation.id}/accept`, users[who].token)).status).toBe(200);
}

beforeAll(async () => {
  for (const name of ['owner', 'member'] as const) {
    const registered = await call('POST', '/api/auth/register', undefined, { email: `${name}-${Date.now()}@example.org`, password: `${name} revocation password` });
    expect(registered.status).toBe(201);
    users[name] = { token: registered.body.token, userId: registered.body.user.id };
  }
  projectId = (await asOwner('POST', '/api/projects', { name: 'Revocation', access: { update: { permission: 'manage' } } })).id;
  await asOwner('POST', `/api/projects/${projectId}/types`, { id: 'notes', name: 'Notes' });
});


describe('a removed member, all-in-one', () => {
  it('gets no successful answer from any service for requests started after the removal was answered, and no more notifications', async () => {
    const project = `/api/projects/${projectId}`;
    await joinProject(project, 'member');
    const data = `${project}/types/notes/data`;
    const loops = 4;
    for (let loop = 0; loop < loops; loop += 1) await asOwner('POST', data, { id: `mine-${loop}`, title: 'shared' });
    const stream = await openSyncStream(platform().url, users.member.token, projectId);
    if (!stream) throw new Error('the member could not open its realtime stream');

    const answers: Array<{ path: string; started: number; status: number }> = [];
    let running = true;
    /** One member client: GET, PATCH, pull and audit trail in turn, each request timed from its start. */
    const hammer = async (loop: number) => {
      let revision = 0;
      const requests: Array<() => Promise<{ path: string; status: number }>> = [
        async () => ({ path: 'GET document', status: (await call('GET', `${data}/mine-${loop}`, users.member.token)).status }),
        async () => {
          const patched = await call('PATCH', `${data}/mine-${loop}`, users.member.token, { modifier: { $inc: { n: 1 } }, baseRevision: revision });
          if (patched.status === 200) revision = patched.body.revision;
          return { path: 'PATCH document', status: patched.status };
        },
        async () => ({ path: 'pull', status: (await call('GET', `${data}?updatedAt=0`, users.member.token)).status }),
        async () => ({ path: 'audit trail', status: (await call('GET', `${project}/audit-trail?limit=5`, users.member.token)).status }),
      ];
      for (let turn = 0; running; turn += 1) {
        const started = performance.now();
        const answer = await (requests[turn % requests.length] as () => Promise<{ path: string; status: number }>)();
        answers.push({ ...answer, started });
      }
    };
    const clients = Array.from({ length: loops }, (_, loop) => hammer(loop));
    await vi.waitFor(() => expect(new Set(answers.filter((answer) => answer.status === 200).map((answer) => answer.path)).size).toBe(4), { timeout: 10_000 });

    expect((await call('DELETE', `${project}/members/${users.member.userId}`, users.owner.token)).status).toBe(204);
    const removedAt = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 400));
    running = false;
    await Promise.all(clients);

    const after = answers.filter((answer) => answer.started > removedAt);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((answer) => answer.status < 300)).toEqual([]);
    expect(new Set(after.map((answer) => answer.status))).toEqual(new Set([404]));

    // A document written after the removal is never notified to the removed member's stream.
    await asOwner('POST', data, { id: 'after-removal', title: 'not for them' });
    await vi.waitFor(async () => expect((await call('GET', `${project}/audit-trail?limit=50`, users.owner.token)).text).toContain('after-removal'), { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stream.text()).not.toContain('after-removal');
    stream.close();
  });

  it('sees a changed permission on the very next request', async () => {
    const project = `/api/projects/${projectId}`;
    await asOwner('POST', `${project}/types/notes/data`, { id: 'secret', title: 'for readers', access: { read: { permission: `${projectId}::readers` } } });
    await joinProject(project, 'member');
    const read = () => call('GET', `${project}/types/notes/data/secret`, users.member.token);
    expect((await read()).status).toBe(404);
    // Replacing a member's permissions answers 200; from then on every request sees them.
    expect((await call('POST', `${project}/members`, users.owner.token, { userId: users.member.userId, permissions: ['readers'] })).status).toBe(200);
    expect((await read()).status).toBe(200);
    expect((await call('POST', `${project}/members`, users.owner.token, { userId: users.member.userId, permissions: [] })).status).toBe(200);
    expect((await read()).status).toBe(404);
  });

  it('turns AI on for the very next request', async () => {
    const project = `/api/projects/${projectId}`;
    const agents = () => call('POST', `${project}/ai-agents/helper/chat`, users.owner.token, { messages: [{ role: 'user', content: 'hello' }] });
    expect((await agents()).status).toBe(403);
    expect((await call('PATCH', `${project}/ai-settings`, users.owner.token, { aiEnabled: true })).body).toEqual({ success: true });
    // No AI provider is configured here: past the project's switch, the gate answers 503.
    expect((await agents()).status).not.toBe(403);
    expect((await call('PATCH', `${project}/ai-settings`, users.owner.token, { aiEnabled: false })).body).toEqual({ success: true });
    expect((await agents()).status).toBe(403);
  });
});

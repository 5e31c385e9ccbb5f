import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSmtpMailer } from '@platform/kit';
import { createMemoryKeyValue } from '@platform/kv';
import { createEmbeddedStore } from '@platform/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadIdentityConfig } from '../config';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

const DAY = 24 * 60 * 60 * 1000;
let now = Date.UTC(2026, 10, 1);
let platform: IdentityTestPlatform;
let counter = 0;

beforeAll(async () => {
  platform = await startIdentityPlatform({ clock: () => now });
});
afterAll(async () => {
  await platform?.close();
});

type Account = { token: string; user: { id: string; email: string } };
type Mail = { to: string; subject: string; text: string };

async function account(name: string): Promise<Account> {
  counter += 1;
  return platform.register(`${name.toLowerCase()}-${counter}@example.org`, { displayName: name });
}

async function projectOf(owner: Account, access?: unknown): Promise<string> {
  const created = await platform.call('POST', '/api/projects', { token: owner.token, body: { name: `Project ${counter}`, access } });
  expect(created.status).toBe(201);
  return created.body.id;
}

const mailsTo = (address: string, from = platform): Mail[] =>
  from.logs.map((line) => line.mail as Mail | undefined).filter((mail): mail is Mail => mail?.to === address);

/** The token of the invitation link in the newest mail to the address. */
function linkTokenIn(address: string, from = platform): string {
  const text = mailsTo(address, from).at(-1)?.text ?? '';
  const link = new RegExp(`${from.url}/console/invitations/([A-Za-z0-9_-]+)`).exec(text);
  expect(link, `an invitation link in the mail to ${address}: ${text}`).not.toBeNull();
  return link![1]!;
}

const inviteByEmail = (projectId: string, inviter: Account, email: string, permissions: string[] = []) =>
  platform.call('POST', `/api/projects/${projectId}/members`, { token: inviter.token, body: { email, permissions } });
const pendingOf = async (projectId: string, owner: Account) => (await platform.call('GET', `/api/projects/${projectId}/invitations`, { token: owner.token })).body.items;
const memberIds = async (projectId: string, owner: Account) =>
  (await platform.call('GET', `/api/projects/${projectId}/members`, { token: owner.token })).body.items.map((member: { userId: string }) => member.userId);

describe('project invitations by email', () => {
  it('answers 202 with the same shape whether or not an account has the address, and mails each a link', async () => {
    const owner = await account('Olga');
    const existing = await account('Existing');
    const projectId = await projectOf(owner);
    const unknownEmail = `nobody-${counter}@example.org`;

    const toExisting = await inviteByEmail(projectId, owner, ` ${existing.user.email.toUpperCase()} `, ['editors']);
    now += 1000;
    const toUnknown = await inviteByEmail(projectId, owner, unknownEmail, ['editors']);
    for (const [answer, email] of [[toExisting, existing.user.email], [toUnknown, unknownEmail]] as const) {
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({
        id: expect.any(String),
        kind: 'project',
        projectId,
        email,
        permissions: [`${projectId}::editors`],
        invitedBy: owner.user.id,
        createdAt: expect.any(Number),
        expiresAt: answer.body.createdAt + 14 * DAY,
      });
    }
    expect(JSON.stringify(toExisting.body)).not.toContain(existing.user.id);
    expect(Object.keys(toExisting.body).sort()).toEqual(Object.keys(toUnknown.body).sort());

    const existingMail = mailsTo(existing.user.email).at(-1)!;
    const unknownMail = mailsTo(unknownEmail).at(-1)!;
    expect(existingMail.subject).toBe(unknownMail.subject);
    expect(existingMail.subject).toContain(`Project ${counter}`);
    expect(existingMail.text.replace(/invitations\/\S+/, '')).toBe(unknownMail.text.replace(/invitations\/\S+/, ''));
    expect(linkTokenIn(existing.user.email)).not.toBe(linkTokenIn(unknownEmail));

    const pending = await pendingOf(projectId, owner);
    expect(pending.map((invitation: { email?: string }) => invitation.email)).toEqual([existing.user.email, unknownEmail]);
    expect(await memberIds(projectId, owner)).toEqual([owner.user.id]);
  });

  it('lets any signed-in account holding the link see the project and accept it once; it then is a member', async () => {
    const owner = await account('Olga');
    const invitee = await account('Ivan');
    const projectId = await projectOf(owner);
    const projectName = `Project ${counter}`;
    const invited = await inviteByEmail(projectId, owner, `ivan-at-home-${counter}@example.org`, ['editors']);
    const token = linkTokenIn(`ivan-at-home-${counter}@example.org`);

    // The store keeps the token's SHA-256 only: a copy of the database holds no working link.
    const [stored] = await platform.context.store.collection('email-invitations').find({ id: invited.body.id });
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored).toMatchObject({ tokenHash: createHash('sha256').update(token).digest('hex') });

    expect((await platform.call('GET', `/api/invitations/${token}`)).status).toBe(401);
    const shown = await platform.call('GET', `/api/invitations/${token}`, { token: invitee.token });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ projectName, inviterName: 'Olga' });

    const accepted = await platform.call('POST', `/api/invitations/${token}/accept`, { token: invitee.token });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ projectId, userId: invitee.user.id, role: 'member', permissions: [`${projectId}::editors`] });
    expect((await platform.call('GET', `/api/projects/${projectId}`, { token: invitee.token })).status).toBe(200);
    expect(await memberIds(projectId, owner)).toContain(invitee.user.id);
    expect(await pendingOf(projectId, owner)).toEqual([]);

    const other = await account('Other');
    for (const [method, path] of [['GET', ''], ['POST', '/accept'], ['POST', '/decline']] as const) {
      const again = await platform.call(method, `/api/invitations/${token}${path}`, { token: other.token });
      expect(again.status).toBe(404);
      expect(again.body.code).toBe('IDENTITY_INVITATION_NOT_FOUND');
    }
    expect((await platform.call('DELETE', `/api/projects/${projectId}/invitations/${invited.body.id}`, { token: owner.token })).status).toBe(404);
    expect((await platform.call('GET', `/api/projects/${projectId}`, { token: other.token })).status).toBe(404);
  });

  it('keeps the token out of the access log: whoever reads the log could accept with it', async () => {
    const owner = await account('Olga');
    const invitee = await account('Ivan');
    const projectId = await projectOf(owner);
    const address = `ivan-logged-${counter}@example.org`;
    await inviteByEmail(projectId, owner, address);
    const token = linkTokenIn(address);
    const linesBefore = platform.logs.length;

    // The console page of the link (no console is served here: a 404, logged all the same), then the API.
    expect((await platform.call('GET', `/console/invitations/${token}`)).status).toBe(404);
    expect((await platform.call('GET', `/api/invitations/${token}`, { token: invitee.token })).status).toBe(200);
    expect((await platform.call('POST', `/api/invitations/${token}/accept`, { token: invitee.token })).status).toBe(200);

    const requests = platform.logs.slice(linesBefore).filter((line) => line.msg === 'request');
    expect(requests.map((line) => `${line.method} ${line.url} ${line.status}`)).toEqual([
      'GET /console/invitations/[redacted] 404',
      'GET /api/invitations/[redacted] 200',
      'POST /api/invitations/[redacted]/accept 200',
    ]);
    expect(JSON.stringify(platform.logs.slice(linesBefore))).not.toContain(token);
  });

  it('refuses a member accepting with 409 and keeps the link for the invitee', async () => {
    const owner = await account('Olga');
    const projectId = await projectOf(owner);
    const email = `later-${counter}@example.org`;
    await inviteByEmail(projectId, owner, email);
    const token = linkTokenIn(email);
    const refused = await platform.call('POST', `/api/invitations/${token}/accept`, { token: owner.token });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('IDENTITY_ALREADY_MEMBER');
    const invitee = await account('Later');
    expect((await platform.call('POST', `/api/invitations/${token}/accept`, { token: invitee.token })).status).toBe(200);
  });

  it('answers 404 the same way for unknown, declined, withdrawn, replaced and lapsed links', async () => {
    const owner = await account('Olga');
    const invitee = await account('Ivan');
    const projectId = await projectOf(owner);
    const links: string[] = ['x'.repeat(43)];

    await inviteByEmail(projectId, owner, `declines-${counter}@example.org`);
    const declined = linkTokenIn(`declines-${counter}@example.org`);
    expect((await platform.call('POST', `/api/invitations/${declined}/decline`, { token: invitee.token })).status).toBe(204);
    links.push(declined);

    const withdrawnInvitation = await inviteByEmail(projectId, owner, `withdrawn-${counter}@example.org`);
    links.push(linkTokenIn(`withdrawn-${counter}@example.org`));
    expect((await platform.call('DELETE', `/api/projects/${projectId}/invitations/${withdrawnInvitation.body.id}`, { token: owner.token })).status).toBe(204);

    const renewedEmail = `renewed-${counter}@example.org`;
    const first = await inviteByEmail(projectId, owner, renewedEmail, ['viewers']);
    const replaced = linkTokenIn(renewedEmail);
    const renewed = await inviteByEmail(projectId, owner, renewedEmail, ['editors']);
    expect(renewed.body).toMatchObject({ id: first.body.id, permissions: [`${projectId}::editors`] });
    expect(mailsTo(renewedEmail)).toHaveLength(2);
    const current = linkTokenIn(renewedEmail);
    expect(current).not.toBe(replaced);
    links.push(replaced);
    expect((await pendingOf(projectId, owner)).filter((invitation: { email?: string }) => invitation.email === renewedEmail)).toHaveLength(1);

    const lapsingEmail = `lapses-${counter}@example.org`;
    await inviteByEmail(projectId, owner, lapsingEmail);
    const lapsing = linkTokenIn(lapsingEmail);
    now += 14 * DAY;
    links.push(lapsing);

    const answers = await Promise.all(links.map((link) => platform.call('POST', `/api/invitations/${link}/accept`, { token: invitee.token })));
    expect(answers.map((answer) => [answer.status, answer.body.code])).toEqual(links.map(() => [404, 'IDENTITY_INVITATION_NOT_FOUND']));
    expect((await platform.call('GET', `/api/invitations/${lapsing}`, { token: invitee.token })).status).toBe(404);
    expect(await memberIds(projectId, owner)).toEqual([owner.user.id]);
    expect(await pendingOf(projectId, owner)).toEqual([]);
  });

  it('refuses bad input with 400 naming the field, and stores and sends nothing', async () => {
    const owner = await account('Olga');
    const projectId = await projectOf(owner);
    const bad: Array<[unknown, string]> = [
      [{ permissions: [] }, 'body.userId'],
      [{ userId: owner.user.id, email: `both-${counter}@example.org` }, 'body.email'],
      [{ email: 'not an address' }, 'body.email'],
      [{ email: '' }, 'body.email'],
      [{ email: `perm-${counter}@example.org`, permissions: ['has space'] }, 'body.permissions.0'],
    ];
    for (const [body, field] of bad) {
      const response = await platform.call('POST', `/api/projects/${projectId}/members`, { token: owner.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.details.issues.map((issue: { field: string }) => issue.field)).toContain(field);
    }
    const foreign = await inviteByEmail(projectId, owner, `foreign-${counter}@example.org`, ['other-project::admins']);
    expect(foreign.status).toBe(400);
    expect(await pendingOf(projectId, owner)).toEqual([]);
    expect(platform.logs.filter((line) => (line.mail as Mail | undefined)?.subject?.includes(`Project ${counter}`))).toEqual([]);
  });

  it('refuses callers who may not manage members, as for user-id invitations, and sends nothing', async () => {
    const owner = await account('Olga');
    const member = await account('Mia');
    const stranger = await account('Sam');
    const projectId = await projectOf(owner);
    await platform.addProjectMember(projectId, owner.token, member);
    const email = `target-${counter}@example.org`;
    expect((await inviteByEmail(projectId, member, email)).status).toBe(403);
    expect((await inviteByEmail(projectId, stranger, email)).status).toBe(404);
    expect((await platform.call('GET', `/api/projects/${projectId}/invitations`, { token: member.token })).status).toBe(403);
    expect(mailsTo(email)).toEqual([]);
    expect(await pendingOf(projectId, owner)).toEqual([]);
  });
});

describe('invitation mail limit', () => {
  it('answers 429 past the hourly number of mails of a project, storing and sending nothing', async () => {
    const limited = await startIdentityPlatform({ clock: () => now, config: { invitationMailLimit: { perHour: 2 } } });
    try {
      const owner = await limited.register(`limit-owner-${counter}@example.org`);
      const projectId = (await limited.call('POST', '/api/projects', { token: owner.token, body: { name: 'Limited' } })).body.id;
      const invite = (email: string) => limited.call('POST', `/api/projects/${projectId}/members`, { token: owner.token, body: { email } });
      expect((await invite('one@example.org')).status).toBe(202);
      expect((await invite('one@example.org')).status).toBe(202);
      const refused = await invite('two@example.org');
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('IDENTITY_TOO_MANY_INVITATIONS');
      expect(refused.headers.get('retry-after')).toBe('3600');
      expect(mailsTo('two@example.org', limited)).toEqual([]);
      expect((await limited.call('GET', `/api/projects/${projectId}/invitations`, { token: owner.token })).body.items).toHaveLength(1);
      now += 60 * 60_000;
      expect((await invite('two@example.org')).status).toBe(202);
    } finally {
      await limited.close();
    }
  });
});

/** A loopback port nothing listens on: an SMTP server that is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('invitation mail failure', () => {
  it('answers 502 IDENTITY_MAIL_FAILED and changes no invitation: nothing new is pending, an earlier link keeps working', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'invitation-mail-failure-'));
    const store = await createEmbeddedStore({ dataDir });
    const kv = createMemoryKeyValue();
    // Two identity processes on one store and session store: one mails through the log, one through an SMTP server that is down.
    const mailing = await startIdentityPlatform({ clock: () => now, store, kv });
    const failing = await startIdentityPlatform({ clock: () => now, store, kv, mailer: createSmtpMailer({ url: `smtp://127.0.0.1:${await closedPort()}`, from: 'Platform <no-reply@localhost>' }) });
    try {
      const owner = await mailing.register(`mail-failure-owner-${++counter}@example.org`);
      const projectId = (await mailing.call('POST', '/api/projects', { token: owner.token, body: { name: 'Mail failure' } })).body.id;
      const invite = (platform: IdentityTestPlatform, email: string, permissions: string[]) => platform.call('POST', `/api/projects/${projectId}/members`, { token: owner.token, body: { email, permissions } });
      const invited = `invited-${counter}@example.org`;
      expect((await invite(mailing, invited, ['viewers'])).status).toBe(202);
      const earlierLink = linkTokenIn(invited, mailing);

      for (const [email, permissions] of [[`new-${counter}@example.org`, ['editors']], [invited, ['admins']]] as const) {
        const refused = await invite(failing, email, [...permissions]);
        expect(refused.status).toBe(502);
        expect(refused.body).toEqual({ error: 'The invitation mail could not be sent, so no invitation is pending; try again later', code: 'IDENTITY_MAIL_FAILED' });
      }
      const pending = (await mailing.call('GET', `/api/projects/${projectId}/invitations`, { token: owner.token })).body.items;
      expect(pending).toEqual([expect.objectContaining({ email: invited, permissions: [`${projectId}::viewers`] })]);
      expect((await mailing.call('GET', `/api/invitations/${earlierLink}`, { token: owner.token })).status).toBe(200);
    } finally {
      await failing.close();
      await mailing.close();
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('invitations by email where mail goes to the log in production', () => {
  it('answers 501 and stores and logs no link: whoever reads the log could accept it', async () => {
    const production = await startIdentityPlatform({ dev: false });
    try {
      const owner = await production.register(`log-owner-${++counter}@example.org`);
      const projectId = (await production.call('POST', '/api/projects', { token: owner.token, body: { name: 'Logged mail' } })).body.id;
      const invited = `logged-${counter}@example.org`;
      const refused = await production.call('POST', `/api/projects/${projectId}/members`, { token: owner.token, body: { email: invited, permissions: ['editors'] } });
      expect(refused.status).toBe(501);
      expect(refused.body).toEqual({ error: expect.stringContaining('SMTP_URL'), code: 'IDENTITY_EMAIL_INVITATION_UNAVAILABLE' });
      expect(mailsTo(invited, production)).toEqual([]);
      expect((await production.call('GET', `/api/projects/${projectId}/invitations`, { token: owner.token })).body.items).toEqual([]);
    } finally {
      await production.close();
    }
  });
});

describe('invitation mail limit configuration', () => {
  it('is 20 mails an hour per project and per inviter by default, set by IDENTITY_INVITATION_MAILS_PER_HOUR', () => {
    expect(loadIdentityConfig({}).invitationMailLimit).toEqual({ perHour: 20 });
    expect(loadIdentityConfig({ IDENTITY_INVITATION_MAILS_PER_HOUR: '5' }).invitationMailLimit).toEqual({ perHour: 5 });
    expect(() => loadIdentityConfig({ IDENTITY_INVITATION_MAILS_PER_HOUR: '0' })).toThrow(/IDENTITY_INVITATION_MAILS_PER_HOUR/);
  });
});

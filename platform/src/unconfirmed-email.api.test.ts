import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { createIdentityService, loadIdentityConfig } from '@platform/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawCall } from './testing/platform-http';

/**
 * With IDENTITY_REQUIRE_CONFIRMED_EMAIL=true an unconfirmed account may use its own account and
 * nothing else (docs/identity.md), not even a project it is a member of, by any route: the type
 * schemas under /api/schemas and the help assistant naming the project were open to it.
 */
let platform: TestGateway;
let ownerToken: string;
let unconfirmedToken: string;
let projectId: string;
let unconfirmedId: string;

beforeAll(async () => {
  platform = await startTestGateway({ services: [createIdentityService({ ...loadIdentityConfig({}), requireConfirmedEmail: true }), dataService] });
  const registered = await platform.call('POST', '/api/auth/register', { body: { email: 'unconfirmed-member@example.org', password: 'member password 1' } });
  expect(registered.body.user.emailConfirmationRequired).toBe(true);
  unconfirmedToken = registered.body.token;
  unconfirmedId = registered.body.user.id;
  ownerToken = await platform.signIn('owner');
  // Membership written straight to the store: an unconfirmed account cannot accept an invitation.
  projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: registered.body.user.id }] });
  const type = await platform.call('POST', `/api/projects/${projectId}/types`, { token: ownerToken, body: { id: 'vault', name: 'Vault', schema: { type: 'object', properties: { secretField: { type: 'string' } } } } });
  expect(type.status).toBe(201);
});

afterAll(async () => {
  await platform?.close();
});

describe('an account whose email is not confirmed yet', () => {
  it("reads no type schema of a project it belongs to", async () => {
    const path = `/api/schemas/projects/${projectId}/types/vault`;
    expect((await platform.call('GET', path, { token: ownerToken })).status).toBe(200);
    const refused = await platform.call('GET', path, { token: unconfirmedToken });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: 'GATEWAY_EMAIL_UNCONFIRMED' });
    expect(JSON.stringify(refused.body)).not.toContain('secretField');
  });

  it('asks the help assistant nothing, with a project named or not', async () => {
    const messages = [{ role: 'user', content: 'What types does this project have?' }];
    for (const [path, body] of [
      ['/api/help/chat', { messages, projectId }],
      [`/api/help/chat?projectId=${projectId}`, { messages }],
      ['/api/help/chat', { messages }],
    ] as const) {
      const refused = await platform.call('POST', path, { token: unconfirmedToken, body });
      // The AI routes answer errors as the interface's `{ error }`, without a code.
      expect({ path, status: refused.status, error: refused.body.error }).toEqual({ path, status: 403, error: expect.stringMatching(/^Confirm your email address first/) });
    }
  });

  it('accepts no invitation, however the accept path is spelled', async () => {
    const other = await platform.seedProject({ ownerId: 'owner' });
    const invited = await platform.call('POST', `/api/projects/${other}/members`, { token: ownerToken, body: { userId: unconfirmedId, permissions: [] } });
    expect(invited.status).toBe(202);
    const accept = `/api/me/invitations/${invited.body.id}`;
    for (const target of [`${accept}/accept`, `${accept}/accept/`, `${accept}/%61ccept`, `${accept}/accept#`]) {
      const refused = await rawCall(platform.url, 'POST', target, unconfirmedToken);
      expect({ target, status: refused.status, code: refused.body.code }).toEqual({ target, status: 403, code: 'GATEWAY_EMAIL_UNCONFIRMED' });
    }
    const members = await platform.call('GET', `/api/projects/${other}/members`, { token: ownerToken });
    expect(JSON.stringify(members.body)).not.toContain(unconfirmedId);
  });
});

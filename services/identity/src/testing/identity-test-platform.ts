import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import type { Mailer, TrustProxy } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import type { DocumentStore } from '@platform/storage';
import { pino } from 'pino';
import { expect } from 'vitest';
import { createIdentityService } from '../app';
import { loadIdentityConfig, type IdentityConfig } from '../config';

/** A mail as the log mailer wrote it. */
export interface LoggedMail {
  to: string;
  subject: string;
  text: string;
}

/** The token of the link a mail carries (`...#token=<token>`). */
export function linkToken(mail: LoggedMail): string {
  const token = /#token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`the mail "${mail.subject}" to ${mail.to} carries no link with a token`);
  return token;
}

export interface IdentityTestPlatform extends TestGateway {
  /** Every line the services logged, parsed. */
  logs: Array<Record<string, unknown>>;
  /** The mails written to the log for `to` (with `subject` only, when given), oldest first. */
  mailsTo(to: string, subject?: string): LoggedMail[];
  /** Registers through the API; answers the session token and the user. */
  register(email: string, options?: { password?: string; displayName?: string }): Promise<{ token: string; user: any }>;
  /** Invites the user to the project as `inviterToken` and accepts as the user; answers the member. */
  addProjectMember(projectId: string, inviterToken: string, member: { token: string; user: { id: string } }, permissions?: string[]): Promise<any>;
  /** Invites the user to the tenant as `adminToken` and accepts as the user; answers the member. */
  addTenantMember(tenantId: string, adminToken: string, member: { token: string; user: { id: string } }, role: 'admin' | 'member'): Promise<any>;
}

/**
 * The defaults, except that tests register many users from one address and send many invitations;
 * those limits have their own tests.
 */
const TEST_CONFIG: IdentityConfig = { ...loadIdentityConfig({}), registrationLimit: { perIp: 1000, windowMs: 60 * 60_000 }, invitationMailLimit: { perHour: 1000 } };

/**
 * For tests racing many sign-ins against a password change: sign-ins still in flight count against
 * the account until they answer, and under load more than five can be in flight when the change
 * checks its password, which then answers 429. The race is what such tests test, so the account's
 * limit is raised (the limit has its own tests in auth.api.test.ts).
 */
export const RACE_LOGIN_LIMITS: IdentityConfig['loginLimits'] = { perAccount: 100, perIp: 20, windowMs: 15 * 60_000 };

/**
 * Identity behind the gateway with its log captured, so tests read what the server wrote there
 * (welcome mails, promotion URLs) exactly as an operator would.
 */
export async function startIdentityPlatform(
  options: { clock?: () => number; dev?: boolean; kv?: KeyValue; store?: DocumentStore; config?: Partial<IdentityConfig>; trustProxy?: TrustProxy; mailer?: Mailer } = {},
): Promise<IdentityTestPlatform> {
  const logs: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  const { config, ...gatewayOptions } = options;
  const platform = await startTestGateway({ services: [createIdentityService({ ...TEST_CONFIG, ...config })], logger, ...gatewayOptions });
  return Object.assign(platform, {
    logs,
    mailsTo(to: string, subject?: string) {
      const mails = logs.map((line) => line.mail as LoggedMail | undefined).filter((mail): mail is LoggedMail => mail?.to === to);
      return subject === undefined ? mails : mails.filter((mail) => mail.subject === subject);
    },
    async register(email: string, registerOptions: { password?: string; displayName?: string } = {}) {
      const response = await platform.call('POST', '/api/auth/register', { body: { email, password: registerOptions.password ?? 'correct horse battery', displayName: registerOptions.displayName } });
      expect(response.status).toBe(201);
      return { token: response.body.token as string, user: response.body.user };
    },
    async addProjectMember(projectId: string, inviterToken: string, member: { token: string; user: { id: string } }, permissions: string[] = []) {
      const invited = await platform.call('POST', `/api/projects/${projectId}/members`, { token: inviterToken, body: { userId: member.user.id, permissions } });
      expect(invited.status).toBe(202);
      return accept(invited.body.id, member.token);
    },
    async addTenantMember(tenantId: string, adminToken: string, member: { token: string; user: { id: string } }, role: 'admin' | 'member') {
      const invited = await platform.call('PUT', `/api/tenants/${tenantId}/members/${member.user.id}`, { token: adminToken, body: { role } });
      expect(invited.status).toBe(202);
      return accept(invited.body.id, member.token);
    },
  });

  async function accept(invitationId: string, token: string): Promise<any> {
    const accepted = await platform.call('POST', `/api/me/invitations/${invitationId}/accept`, { token });
    expect(accepted.status).toBe(200);
    return accepted.body;
  }
}

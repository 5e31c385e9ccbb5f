import { requireUser, userGuard } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearSessionCookie } from '../auth/session-cookie';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';

const sessionSummarySchema = z.object({
  id: z.string(),
  current: z.boolean().describe('The session of this request'),
  createdAt: z.number().describe('Sign-in time, Unix ms'),
  expiresAt: z.number().describe('Absolute expiry, Unix ms'),
  lastUsedAt: z.number().nullable().describe('When it was last used, Unix ms, to within 5 minutes; null if not since sign-in'),
  device: z.string().nullable().describe('A name for the device that signed in, such as "Firefox 133 on Windows"; null when it sent no User-Agent'),
  userAgent: z.string().nullable().describe('The User-Agent it sent (at most 512 characters)'),
  address: z.string().nullable().describe('The client address that signed in'),
});

/** What signing out elsewhere and a password change answer. */
export const endedSessionsResponse = z.object({ endedSessions: z.number().describe('Sessions on other devices that ended; this one (and access tokens) stay') });

/** The signed-in user's sessions ("where you are signed in"): list them, end one, end all others. */
export function registerSessionRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/me/sessions',
    {
      preHandler: userGuard,
      schema: { tags: ['identity'], summary: 'Your live sessions, newest first', response: { 200: z.object({ sessions: z.array(sessionSummarySchema) }) } },
    },
    async (request) => {
      const { userId, sessionId } = requireUser(request);
      const sessions = await deps.sessions.list(userId, 'session');
      return { sessions: sessions.map(({ name: _none, ...session }) => ({ ...session, current: session.id === sessionId })) };
    },
  );

  routes.delete(
    '/api/me/sessions',
    {
      preHandler: userGuard,
      schema: { tags: ['identity'], summary: 'Sign out everywhere else: every session of yours but this one ends (access tokens stay)', response: { 200: endedSessionsResponse } },
    },
    async (request) => {
      const { userId, sessionId } = requireUser(request);
      return { endedSessions: await deps.sessions.revokeAll(userId, { keep: sessionId, keepTokens: true }) };
    },
  );

  routes.delete(
    '/api/me/sessions/:sessionId',
    {
      preHandler: userGuard,
      schema: {
        tags: ['identity'],
        summary: 'End one of your sessions (its device is signed out; ending this one signs you out)',
        params: z.object({ sessionId: z.string().min(1).max(100) }),
        response: { 204: z.undefined().describe('Ended') },
      },
    },
    async (request, reply) => {
      const { userId, sessionId } = requireUser(request);
      if (!(await deps.sessions.revokeById(userId, request.params.sessionId, 'session'))) throw identityError('IDENTITY_SESSION_NOT_FOUND');
      if (request.params.sessionId === sessionId) clearSessionCookie(reply, deps.dev);
      return reply.code(204).send();
    },
  );
}

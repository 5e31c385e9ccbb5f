import type { Principal } from '@platform/contracts';
import { AppError, requestTraceContext, requireUser, userGuard } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestDevice } from '../auth/session-device';
import type { SessionSummary, TokenGrant } from '../auth/sessions';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';
import { noticeAccountChange } from '../users/security-notices';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Live tokens a user may hold: enough for every program one person runs, not a store to fill. */
export const MAX_ACCESS_TOKENS = 50;

const tokenAccess = z.enum(['read-write', 'read']).describe('`read`: the gateway refuses every request that could change something (403 `GATEWAY_TOKEN_READ_ONLY`)');

/** Projects one token may be made for; more is as good as all of them. */
const MAX_TOKEN_PROJECTS = 20;

const tokenProjects = z
  .array(z.string().min(1).max(128))
  .min(1)
  .max(MAX_TOKEN_PROJECTS)
  .refine((ids) => new Set(ids).size === ids.length, 'each project once')
  .describe(`Only these projects (ids, at most ${MAX_TOKEN_PROJECTS}): every other project is unknown to the token, and the gateway refuses it whatever is not about them (403 \`GATEWAY_TOKEN_PROJECT_SCOPED\`); absent: every project its user can reach`);

const createBody = z
  .object({
    name: z.string().trim().min(1).max(100).describe('What the token is for, such as "nightly export"'),
    expiresInDays: z.number().int().min(1).max(365).default(90).describe('It stops working this many days from now (default 90, at most 365)'),
    access: tokenAccess.default('read-write'),
    projects: tokenProjects.optional(),
  })
  .strict();

const amendBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    access: tokenAccess.optional(),
    projects: tokenProjects.nullable().optional().describe('The projects it reaches from now on; null: every project its user can reach'),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'name, access or projects');

const tokenSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  current: z.boolean().describe('The token this request was sent with'),
  createdAt: z.number().describe('Unix ms'),
  expiresAt: z.number().describe('Absolute expiry, Unix ms'),
  lastUsedAt: z.number().nullable().describe('When a request last came with it, Unix ms, to within 5 minutes; null if never'),
  access: tokenAccess,
  projects: tokenProjects.optional(),
});

/** What a token of `access` for `projects` (undefined: every project) may do beyond acting as its user. */
function tokenGrant(access: 'read' | 'read-write', projects: string[] | undefined): TokenGrant {
  return { ...(access === 'read' ? { readOnly: true } : {}), ...(projects ? { projectIds: projects } : {}) };
}

/** Each project as the signed-in user reaches it now (a deleted or foreign one is unknown), else 400 naming it. */
async function requireReachable(deps: IdentityDeps, principal: Principal, projects: string[] | undefined): Promise<void> {
  for (const [index, projectId] of (projects ?? []).entries()) {
    await deps.access.require(projectId, principal).catch(() => {
      throw identityError('IDENTITY_TOKEN_PROJECT_UNKNOWN', { details: { field: `projects.${index}` } });
    });
  }
}

function tokenSummary(token: SessionSummary, currentSessionId: string): z.infer<typeof tokenSummarySchema> {
  const { id, name, createdAt, expiresAt, lastUsedAt, readOnly, projectIds } = token;
  return { id, name: name ?? '', current: id === currentSessionId, createdAt, expiresAt, lastUsedAt, access: readOnly ? 'read' : 'read-write', ...(projectIds ? { projects: projectIds } : {}) };
}

/**
 * Personal access tokens: for a program acting as its user (`Authorization: Bearer pat_...`)
 * without the user's password, each named, with its own expiry, listed and revoked one by one.
 */
export function registerAccessTokenRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/me/tokens',
    {
      preHandler: userGuard,
      schema: {
        tags: ['identity'],
        summary: 'Make a personal access token (shown once); only from a signed-in session',
        description: `The token acts as you wherever a session does, sent as \`Authorization: Bearer <token>\`; with \`access: read\` it only reads (GET, and the POST that asks which documents are readable); with \`projects\` it reaches only those projects (each one you belong to now, else 400 \`IDENTITY_TOKEN_PROJECT_UNKNOWN\`). It is shown only in this answer. At most ${MAX_ACCESS_TOKENS} live tokens (409 beyond).`,
        body: createBody,
        response: { 201: tokenSummarySchema.omit({ current: true, lastUsedAt: true }).extend({ token: z.string().describe('The secret: keep it like a password; it is never shown again') }) },
      },
    },
    async (request, reply) => {
      const { userId, sessionId } = requireUser(request);
      // A token that could make tokens would outlive its own revocation in the ones it made.
      if ((await deps.sessions.kind(userId, sessionId)) !== 'session') throw identityError('IDENTITY_TOKEN_NEEDS_SIGN_IN');
      if ((await deps.sessions.list(userId, 'token')).length >= MAX_ACCESS_TOKENS) throw identityError('IDENTITY_TOO_MANY_TOKENS');
      const user = await deps.users.require(userId);
      const { name, expiresInDays, access, projects } = request.body;
      await requireReachable(deps, request.principal, projects);
      const { token, session } = await deps.sessions.createAccessToken(user, name, expiresInDays * DAY_MS, requestDevice(request), tokenGrant(access, projects));
      // The session that made it ended meanwhile (a password reset, the account deleted, signed out
      // everywhere): it must not leave a token behind (Sessions.revokeAll ends sessions, then tokens).
      if ((await deps.sessions.kind(userId, sessionId)) !== 'session') {
        await deps.sessions.revokeById(userId, session.id, 'token');
        throw new AppError(401, 'UNAUTHENTICATED', 'Your session ended while the token was being made; sign in again');
      }
      // Counted again once written: of tokens made at once, each that sees more than the limit gives
      // way (the one written last sees every other, so the limit holds without a lock; all of them
      // may give way, and a request made again then finds room).
      if ((await deps.sessions.list(userId, 'token')).length > MAX_ACCESS_TOKENS) {
        await deps.sessions.revokeById(userId, session.id, 'token');
        throw identityError('IDENTITY_TOO_MANY_TOKENS');
      }
      noticeAccountChange(deps, user, { accessTokenMade: name }, requestTraceContext(request));
      return reply.code(201).send({ id: session.id, name, access, ...(projects ? { projects } : {}), createdAt: session.createdAt, expiresAt: session.expiresAt, token });
    },
  );

  routes.get(
    '/api/me/tokens',
    { preHandler: userGuard, schema: { tags: ['identity'], summary: 'Your live personal access tokens, newest first (never their secrets)', response: { 200: z.object({ tokens: z.array(tokenSummarySchema) }) } } },
    async (request) => {
      const { userId, sessionId } = requireUser(request);
      const tokens = await deps.sessions.list(userId, 'token');
      return { tokens: tokens.map((token) => tokenSummary(token, sessionId)) };
    },
  );

  routes.patch(
    '/api/me/tokens/:tokenId',
    {
      preHandler: userGuard,
      schema: {
        tags: ['identity'],
        summary: 'Rename one of your personal access tokens, or change what it may do; only from a signed-in session',
        description:
          'Absent fields stay as they are; `projects: null` lets it reach every project again. It keeps its secret and expiry, and the change holds from its next request (its open realtime streams of a project it no longer reaches close). Each project must be one you belong to now (else 400 `IDENTITY_TOKEN_PROJECT_UNKNOWN`). From an access token: 403 `IDENTITY_TOKEN_NEEDS_SIGN_IN` (a token could widen itself).',
        params: z.object({ tokenId: z.string().min(1).max(100) }),
        body: amendBody,
        response: { 200: tokenSummarySchema },
      },
    },
    async (request) => {
      const { userId, sessionId } = requireUser(request);
      if ((await deps.sessions.kind(userId, sessionId)) !== 'session') throw identityError('IDENTITY_TOKEN_NEEDS_SIGN_IN');
      const { name, access, projects } = request.body;
      const amended = await deps.sessions.amendToken(userId, request.params.tokenId, async (current) => {
        await requireReachable(deps, request.principal, projects ?? undefined);
        const grant = tokenGrant(access ?? (current.readOnly ? 'read' : 'read-write'), projects === undefined ? current.projectIds : (projects ?? undefined));
        return { name: name ?? current.name, grant };
      });
      if (!amended) throw identityError('IDENTITY_TOKEN_NOT_FOUND');
      return tokenSummary(amended, sessionId);
    },
  );

  routes.delete(
    '/api/me/tokens/:tokenId',
    {
      preHandler: userGuard,
      schema: {
        tags: ['identity'],
        summary: 'Revoke one of your personal access tokens: it stops working at once',
        params: z.object({ tokenId: z.string().min(1).max(100) }),
        response: { 204: z.undefined().describe('Revoked') },
      },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      if (!(await deps.sessions.revokeById(userId, request.params.tokenId, 'token'))) throw identityError('IDENTITY_TOKEN_NOT_FOUND');
      return reply.code(204).send();
    },
  );
}

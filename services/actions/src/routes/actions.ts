import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { scopeAccess } from '@platform/contracts';
import { AppError, requireUser, rlsAllows, type ProjectCaller, type ProjectRecord } from '@platform/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ActionsDeps } from '../actions-deps';
import { blockRegistry } from '../blocks/registry';
import { actionBodySchema, type ActionBody, type StoredAction } from '../domain/action-schema';
import { actionSizeProblems } from '../domain/action-size';
import { validateGraph, type GraphProblem } from '../domain/graph';
import type { NetworkPolicy } from '../domain/network-policy';
import { refusedWebhookAddresses } from '../domain/webhook-addresses';
import { redactSecrets, restoreRedactedSecrets } from '../domain/webhook-secrets';
import { projectWebhookKey } from '../domain/webhook-signature';
import { actionChangeMessage } from '../executor/action-changes';
import { actionsError } from '../errors';
import { actionParams, actionSchema, projectParams } from './schemas';

type ActionView = z.infer<typeof actionSchema>;

/**
 * The action as callers see it. Block secrets (webhook signing keys) only for callers with the
 * project's update permission: an action without rules may be updated by every member, and a
 * signing key lets whoever holds it forge webhook calls.
 */
function view(action: StoredAction, caller: ProjectCaller, project: ProjectRecord): ActionView {
  const visible = Object.fromEntries(Object.entries(action).filter(([key]) => !key.startsWith('_'))) as ActionView;
  return rlsAllows(project.access, 'update', caller) ? visible : { ...visible, blocks: redactSecrets(visible.blocks) };
}

/** 400 naming the first problem, with all of them in details. */
function refuse(problems: GraphProblem[]): void {
  const first = problems[0];
  if (first) throw new AppError(400, first.code, `Invalid ${first.field}: ${first.message}`, { problems });
}

/** The action's size, then its graph's problems, then (once it is sound) its webhook addresses'. */
function checkGraph(body: ActionBody, policy: NetworkPolicy): void {
  refuse(actionSizeProblems(body));
  const graphProblems = validateGraph({ triggers: body.triggers ?? [], blocks: body.blocks ?? [], connections: body.connections ?? [] }, blockRegistry);
  refuse(graphProblems.length ? graphProblems : refusedWebhookAddresses(body.blocks ?? [], policy));
}

/** The fields stored for a body; plain permission names in its access are the project's (`{projectId}::name`). */
function fieldsOf(projectId: string, body: ActionBody) {
  return {
    title: body.title,
    ...(body.description !== undefined ? { description: body.description } : {}),
    triggers: body.triggers ?? [],
    blocks: body.blocks ?? [],
    connections: body.connections ?? [],
    ...(body.access !== undefined ? { access: scopeAccess(projectId, body.access) } : {}),
  };
}

/** Actions CRUD under /api/projects/{projectId}/actions, for project members, with RLS per action. */
export function registerActionRoutes(app: FastifyInstance, deps: ActionsDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  async function member(request: FastifyRequest, projectId: string) {
    requireUser(request);
    return deps.projects.require(projectId, request.principal);
  }

  async function readable(projectId: string, actionId: string, caller: ProjectCaller): Promise<StoredAction> {
    const action = await deps.actions.find(projectId, actionId);
    if (!action || !rlsAllows(action.access, 'read', caller)) throw actionsError('ACTIONS_NOT_FOUND');
    return action;
  }

  typed.get(
    '/api/projects/:projectId/actions',
    {
      schema: {
        tags: ['actions'],
        summary: 'The actions of a project the caller may read, oldest first',
        description: "`webhookKey`: the key the project's webhook calls without a block `secret` are signed with; only for callers with the project's update permission, and only when the server has ACTIONS_WEBHOOK_SECRET.",
        params: projectParams,
        response: { 200: z.object({ items: z.array(actionSchema), webhookKey: z.string().optional() }) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const { project, caller } = await member(request, projectId);
      const actions = await deps.actions.listReadable(projectId, caller);
      const items = actions.map((action) => view(action, caller, project));
      // Receivers need it to verify; shown like block secrets, to those who may change the project.
      const secret = deps.config.webhookSecret;
      return secret && rlsAllows(project.access, 'update', caller) ? { items, webhookKey: projectWebhookKey(secret, projectId) } : { items };
    },
  );

  typed.post(
    '/api/projects/:projectId/actions',
    { schema: { tags: ['actions'], summary: 'Create an action (validated as a graph); the creator becomes its owner', params: projectParams, body: actionBodySchema, response: { 201: actionSchema } } },
    async (request, reply) => {
      const { project, caller } = await member(request, request.params.projectId);
      checkGraph(request.body, deps.policy);
      if (request.body.access !== undefined && !rlsAllows(project.access, 'update', caller)) {
        throw actionsError('ACTIONS_FORBIDDEN', { message: 'Setting access needs the update permission on the project' });
      }
      // A bound, not a count kept exact under concurrent creates: a few at once may pass it by as many.
      if ((await deps.actions.liveCount(request.params.projectId)) >= deps.config.maxPerProject) {
        throw actionsError('ACTIONS_TOO_MANY', { message: `A project holds at most ${deps.config.maxPerProject} actions; delete one first`, details: { limit: deps.config.maxPerProject } });
      }
      const now = deps.clock();
      const action: StoredAction = { id: randomUUID(), projectId: request.params.projectId, ...fieldsOf(request.params.projectId, request.body), ownerId: caller.userId, revision: 0, createdAt: now, updatedAt: now };
      await deps.actions.insert(action);
      await deps.actionChanges.publish([actionChangeMessage(action, 'created', caller.userId)]);
      return reply.code(201).send(view(action, caller, project));
    },
  );

  typed.get(
    '/api/projects/:projectId/actions/:actionId',
    { schema: { tags: ['actions'], summary: 'One action', params: actionParams, response: { 200: actionSchema } } },
    async (request) => {
      const { project, caller } = await member(request, request.params.projectId);
      return view(await readable(request.params.projectId, request.params.actionId, caller), caller, project);
    },
  );

  typed.put(
    '/api/projects/:projectId/actions/:actionId',
    {
      schema: {
        tags: ['actions'],
        summary: 'Replace an action (validated as a graph); the caller becomes its owner',
        params: actionParams,
        body: actionBodySchema,
        response: { 200: actionSchema },
      },
    },
    async (request) => {
      const { projectId, actionId } = request.params;
      const { project, caller } = await member(request, projectId);
      const current = await readable(projectId, actionId, caller);
      if (!rlsAllows(current.access, 'update', caller)) throw actionsError('ACTIONS_FORBIDDEN', { message: 'You may not update this action' });
      const restored = restoreRedactedSecrets(request.body.blocks ?? [], current.blocks);
      refuse(restored.problems);
      const body = { ...request.body, ...(request.body.blocks ? { blocks: restored.blocks } : {}) };
      checkGraph(body, deps.policy);
      const fields = fieldsOf(projectId, body);
      if (!isDeepStrictEqual(fields.access, current.access) && !rlsAllows(project.access, 'update', caller)) {
        throw actionsError('ACTIONS_FORBIDDEN', { message: 'Changing access needs the update permission on the project' });
      }
      const unset = (['description', 'access'] as const).filter((field) => fields[field as keyof typeof fields] === undefined && current[field] !== undefined);
      const updated = await deps.actions.replace(current, { ...fields, ownerId: caller.userId }, unset, deps.clock());
      if (!updated) throw actionsError('ACTIONS_CONFLICT');
      await deps.actionChanges.publish([actionChangeMessage(updated, 'updated', caller.userId)]);
      return view(updated, caller, project);
    },
  );

  typed.delete(
    '/api/projects/:projectId/actions/:actionId',
    { schema: { tags: ['actions'], summary: 'Delete an action (soft: its runs stay in the store, it never runs again)', params: actionParams, response: { 200: actionSchema } } },
    async (request) => {
      const { projectId, actionId } = request.params;
      const { project, caller } = await member(request, projectId);
      const current = await readable(projectId, actionId, caller);
      if (!rlsAllows(current.access, 'delete', caller)) throw actionsError('ACTIONS_FORBIDDEN', { message: 'You may not delete this action' });
      const now = deps.clock();
      const deleted = await deps.actions.replace(current, { deletedAt: now }, [], now);
      if (!deleted) throw actionsError('ACTIONS_CONFLICT');
      await deps.actionChanges.publish([actionChangeMessage(deleted, 'deleted', caller.userId)]);
      return view(deleted, caller, project);
    },
  );
}

import { numberText, requestTraceContext, requireUser, rlsAllows } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ActionsDeps } from '../actions-deps';
import { actionsError } from '../errors';
import { latestChangeEvent } from '../executor/latest-change-event';
import { ownerStanding } from '../executor/owner-standing';
import { RUN_STATUSES } from '../executor/run-store';
import { readerFields } from '../executor/run-visibility';
import { actionParams, manualRunBodySchema, runSchema } from './schemas';

/**
 * GET .../actions/{actionId}/runs: the action's execution results, newest first, paged. Runs on
 * documents the caller may not read are left out of `items`, and block results that involve other
 * documents the caller may not read are redacted (RunVisibility); `total` counts every run of the action
 * (of `status`, when the query names one).
 * GET .../runs/{runId}: one of them, as the list shows it.
 * POST .../actions/{actionId}/runs: its owner runs it by hand on a document (docs/actions.md).
 */
export function registerRunRoutes(app: FastifyInstance, deps: ActionsDeps): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/projects/:projectId/actions/:actionId/runs',
    {
      schema: {
        tags: ['actions'],
        summary: 'Runs of an action with every block result (successes, failures, skips, timings), newest first',
        params: actionParams,
        querystring: z.object({
          page: numberText(z.coerce.number().int().min(1).default(1)),
          pageSize: numberText(z.coerce.number().int().min(1).default(50)).transform((size) => Math.min(size, 200)),
          status: z.enum(RUN_STATUSES).optional().describe('Only runs with this status (`failed`: what went wrong lately)'),
        }),
        response: { 200: z.object({ items: z.array(runSchema), page: z.number(), pageSize: z.number(), total: z.number() }) },
      },
    },
    async (request) => {
      requireUser(request);
      const { projectId, actionId } = request.params;
      const { caller } = await deps.projects.require(projectId, request.principal);
      const action = await deps.actions.find(projectId, actionId);
      if (!action || !rlsAllows(action.access, 'read', caller)) throw actionsError('ACTIONS_NOT_FOUND');
      const { page, pageSize, status } = request.query;
      const { items, total } = await deps.runs.list(actionId, { skip: (page - 1) * pageSize, limit: pageSize }, status);
      return { items: await deps.runVisibility.visibleTo(caller, projectId, items), page, pageSize, total };
    },
  );

  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/projects/:projectId/actions/:actionId/runs/:runId',
    {
      schema: {
        tags: ['actions'],
        summary: 'One run of an action, with every block result: what to poll after starting a run by hand',
        description: "404 `ACTIONS_RUN_NOT_FOUND` for a run that is not this action's, was removed (ACTIONS_RUN_RETENTION_DAYS), or is on a document the caller may not read; block results involving other documents the caller may not read are redacted, as in the list.",
        params: actionParams.extend({ runId: z.string().min(1).max(64) }),
        response: { 200: runSchema },
      },
    },
    async (request) => {
      requireUser(request);
      const { projectId, actionId, runId } = request.params;
      const { caller } = await deps.projects.require(projectId, request.principal);
      const action = await deps.actions.find(projectId, actionId);
      if (!action || !rlsAllows(action.access, 'read', caller)) throw actionsError('ACTIONS_NOT_FOUND');
      const run = await deps.runs.find(runId);
      const [visible] = run && run.actionId === actionId && run.projectId === projectId ? await deps.runVisibility.visibleTo(caller, projectId, [run]) : [];
      if (!visible) throw actionsError('ACTIONS_RUN_NOT_FOUND');
      return visible;
    },
  );

  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/projects/:projectId/actions/:actionId/runs',
    {
      schema: {
        tags: ['actions'],
        summary: "Run an action by hand on a document's latest change, whatever its triggers (its owner only); answers the run as it starts",
        description:
          'The run acts on the document as it is now and the change that made it so, as that change\'s event would have run the action (`triggerName` of that change\'s kind), at depth 0, and is recorded with `startedBy`. It answers 202 at once; the blocks run after the answer, and `GET .../runs/{runId}` (its `id`) shows how they went. 403 `ACTIONS_NOT_OWNER` for anyone but the owner (saving an action makes you its owner); 404 `ACTIONS_DOCUMENT_NOT_FOUND` for a document that is unknown or not readable by the caller. A deleted document runs on its deletion (`documentDeleted`).',
        params: actionParams,
        body: manualRunBodySchema,
        response: { 202: runSchema },
      },
    },
    async (request, reply) => {
      requireUser(request);
      const { projectId, actionId } = request.params;
      const { caller } = await deps.projects.require(projectId, request.principal);
      const action = await deps.actions.find(projectId, actionId);
      if (!action || !rlsAllows(action.access, 'read', caller)) throw actionsError('ACTIONS_NOT_FOUND');
      // The run acts with its owner's rights: nobody else may choose when and on what.
      if (action.ownerId !== caller.userId) throw actionsError('ACTIONS_NOT_OWNER');
      // A document the owner may read as a member, as for a triggered run: a platform owner's standing does not count.
      const owner = await ownerStanding(deps.projects, projectId, caller.userId);
      const latest = owner && (await latestChangeEvent(deps.data, projectId, request.body.typeId, request.body.documentId, owner));
      if (!latest) throw actionsError('ACTIONS_DOCUMENT_NOT_FOUND', { details: { field: 'documentId' } });
      // As it starts: no block has run, so nothing in it is the caller's to be kept from.
      const started = await deps.executor.startManualRun(action, latest.event, latest.eventId, caller.userId, requestTraceContext(request));
      return reply.code(202).send(readerFields(started));
    },
  );
}

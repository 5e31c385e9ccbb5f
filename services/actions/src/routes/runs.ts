import { requireUser, rlsAllows } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ActionsDeps } from '../actions-deps';
import { actionsError } from '../errors';
import { actionParams, runSchema } from './schemas';

/**
 * GET .../actions/{actionId}/runs: the action's execution results, newest first, paged. Runs on
 * documents the caller may not read are left out of `items`, and block results that involve other
 * documents the caller may not read are redacted (RunVisibility); `total` counts every run of the action.
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
          page: z.coerce.number().int().min(1).default(1),
          pageSize: z.coerce.number().int().min(1).default(50).transform((size) => Math.min(size, 200)),
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
      const { page, pageSize } = request.query;
      const { items, total } = await deps.runs.list(actionId, { skip: (page - 1) * pageSize, limit: pageSize });
      return { items: await deps.runVisibility.visibleTo(caller, projectId, items), page, pageSize, total };
    },
  );
}

import { ID_PATTERN } from '@platform/documents';
import { requireUser, type ProjectAccess } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AiUsageLimits } from '../usage-limits';

const budget = z.object({ calls: z.number().describe('Provider calls this hour'), limit: z.number().describe('Calls allowed an hour') });

const usageSchema = z.union([
  z.object({
    configured: z.literal(true),
    windowEndsAt: z.number().describe('When this hour ends and both budgets start again (Unix ms)'),
    you: budget.describe("The caller's own budget (AI_CALLS_PER_USER_PER_HOUR), across projects and the help chat"),
    project: budget.describe("The project's members' budget together (AI_CALLS_PER_PROJECT_PER_HOUR)"),
  }),
  z.object({ configured: z.literal(false).describe('No AI provider is configured on this server: no call is ever made') }),
]);

/**
 * `GET /api/projects/{projectId}/ai-usage`: this hour's AI calls against the caller's and the
 * project's budgets (AiUsageLimits), for any member, whether AI is on in the project or not, so a
 * 429 `AI_RATE_LIMITED` can be seen coming and explained.
 */
export function registerAiUsageRoute(scope: FastifyInstance, projects: ProjectAccess, limits: AiUsageLimits | undefined): void {
  scope.withTypeProvider<ZodTypeProvider>().get(
    '/api/projects/:projectId/ai-usage',
    {
      schema: {
        tags: ['ai-agents'],
        summary: "This hour's AI calls against your budget and the project's (members only)",
        params: z.object({ projectId: z.string().regex(ID_PATTERN, 'ids hold 1 to 64 letters, digits, _ or -') }),
        response: { 200: usageSchema },
      },
    },
    async (request) => {
      const { userId } = requireUser(request);
      await projects.require(request.params.projectId, request.principal);
      if (!limits) return { configured: false as const };
      return { configured: true as const, ...(await limits.usage(userId, request.params.projectId)) };
    },
  );
}

import { ID_PATTERN } from '@platform/documents';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { kioskConfiguration } from '../check-in/kiosk-configuration';
import { visitorsError } from '../errors';
import { openProject } from './access';
import type { VisitorsDeps } from './context';

const id = z.string().regex(ID_PATTERN, 'ids hold 1 to 64 letters, digits, _ or -');
const text = z.record(z.string(), z.string()).describe('Text per language code, e.g. { "en": "…", "de": "…" }');
const kioskSchema = z.object({
  applicationId: z.string(),
  widgetId: z.string(),
  visitorCollectionName: z.string().describe('collectionName for check-in (POST .../visitors)'),
  eventCollectionName: z.string().optional().describe('collectionName for check-in and check-out events (POST .../visitors/{visitorId}/events)'),
  configuration: z.object({
    title: text.optional(),
    description: text.optional(),
    successSignInMessage: text.optional(),
    successSignOutMessage: text.optional(),
    smallPrint: text.optional(),
    scannerButtonText: text.optional(),
    scannerEnabled: z.boolean(),
    deletionPeriods: z.array(z.object({ duration: z.number(), label: text, isDefault: z.boolean() })),
  }),
});

/**
 * The public kiosk's setup: what the application's CheckIn widget configures, so a kiosk page can
 * render it without a session. Public callers meet the per-address rate limit like every visitor
 * route.
 */
export async function registerKioskRoutes(app: FastifyInstance, deps: VisitorsDeps): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/projects/:projectId/visitors/kiosks/:applicationId',
    {
      schema: {
        tags: ['visitors'],
        summary: "A kiosk's setup (public): the application's CheckIn widget configuration with its defaults, and the collection names to check in with",
        security: [],
        params: z.object({ projectId: id, applicationId: id }),
        response: { 200: kioskSchema },
      },
    },
    async (request) => {
      const { projectId, applicationId } = request.params;
      await openProject(deps, request, projectId);
      const kiosk = await kioskConfiguration(deps.data.store, projectId, applicationId);
      if (!kiosk) throw visitorsError('VISITORS_KIOSK_NOT_FOUND', { details: { field: 'applicationId' } });
      return kiosk;
    },
  );
}

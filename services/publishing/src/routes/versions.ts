import { numberText, requestTraceContext, requireUser } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listView, memberView } from '../domain/versions';
import { publishingError } from '../errors';
import type { PublishingDeps } from '../publishing-deps';
import { applicationParams, versionIdSchema, versionListItemSchema, versionSchema } from './schemas';

/** POST .../publish, GET .../versions and GET .../versions/{versionId} of an application. */
export function registerVersionRoutes(app: FastifyInstance, deps: PublishingDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/projects/:projectId/applications/:appId';

  typed.post(
    `${base}/publish`,
    {
      schema: {
        tags: ['publishing'],
        summary: 'Publish the application as a new immutable version (read and update permission on the application)',
        params: applicationParams,
        response: { 201: versionSchema },
      },
    },
    async (request, reply) => {
      const { caller } = await deps.data.projects.require(request.params.projectId, requireUser(request));
      const version = await deps.publisher.publish(request.params.projectId, request.params.appId, caller, requestTraceContext(request));
      return reply.code(201).send(memberView(version));
    },
  );

  typed.get(
    `${base}/versions`,
    {
      schema: {
        tags: ['publishing'],
        summary: 'Published versions, newest first, without routes and serverConfiguration (read permission)',
        params: applicationParams,
        querystring: z.object({
          limit: numberText(z.coerce.number().int().min(1).max(1000).default(1000)),
          before: numberText(z.coerce.number().int().min(1)).optional().describe('Only versions numbered below this, to page on'),
        }),
        response: { 200: z.array(versionListItemSchema) },
      },
    },
    async (request) => {
      const { projectId, appId } = request.params;
      const { caller } = await deps.data.projects.require(projectId, requireUser(request));
      const application = await deps.publisher.readable(projectId, appId, caller);
      const versions = await deps.versions.committed(projectId, appId, { upTo: application.publishedVersionNumber ?? 0, before: request.query.before, limit: request.query.limit });
      return versions.map(listView);
    },
  );

  typed.get(
    `${base}/versions/:versionId`,
    {
      schema: {
        tags: ['publishing'],
        summary: 'One published version with its full snapshot (read permission)',
        params: applicationParams.extend({ versionId: versionIdSchema }),
        response: { 200: versionSchema },
      },
    },
    async (request) => {
      const { projectId, appId, versionId } = request.params;
      const { caller } = await deps.data.projects.require(projectId, requireUser(request));
      const application = await deps.publisher.readable(projectId, appId, caller);
      const version = await deps.versions.find(projectId, versionId);
      if (!version || version.applicationId !== appId || version.versionNumber > (application.publishedVersionNumber ?? 0)) throw publishingError('PUBLISHING_VERSION_NOT_FOUND');
      return memberView(version);
    },
  );
}

import { randomUUID } from 'node:crypto';
import { requireUser, rlsAllows, type ProjectCaller } from '@platform/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assignModifier, pinChange, pinnedAfter, type PinChange } from '../domain/pin';
import { publishingError } from '../errors';
import type { PublishingDeps } from '../publishing-deps';
import type { StoredDomain } from '../stores/domains';
import { domainSchema, hostnameSchema, idSchema, targetVersionIdSchema } from './schemas';

const projectParams = z.object({ projectId: idSchema });
const domainParams = projectParams.extend({ domainId: idSchema });
const assignBody = z.object({ targetType: z.literal('application'), targetId: idSchema, targetVersionId: targetVersionIdSchema });

function domainView(domain: StoredDomain): z.infer<typeof domainSchema> {
  const { id, projectId, hostname, targetType, targetId, targetVersionId, revision, createdAt, updatedAt } = domain;
  return { id, projectId, hostname, ...(targetType ? { targetType } : {}), ...(targetId ? { targetId } : {}), ...(targetVersionId ? { targetVersionId } : {}), revision, createdAt, updatedAt };
}

function invalidTarget(field: 'targetId' | 'targetVersionId', message: string) {
  return publishingError('PUBLISHING_INVALID_TARGET', { message: `Invalid body.${field}: ${message}`, details: { field } });
}

/**
 * ProjectDomain CRUD and assignment. Members of the project read domains; changing them needs
 * update permission on the project. A hostname belongs to one domain platform-wide.
 */
export function registerDomainRoutes(app: FastifyInstance, deps: PublishingDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/projects/:projectId/domains';

  async function member(request: FastifyRequest, projectId: string): Promise<ProjectCaller> {
    return (await deps.data.projects.require(projectId, requireUser(request))).caller;
  }

  async function manager(request: FastifyRequest, projectId: string): Promise<ProjectCaller> {
    const { project, caller } = await deps.data.projects.require(projectId, requireUser(request));
    if (!rlsAllows(project.access, 'update', caller)) throw publishingError('PUBLISHING_FORBIDDEN', { message: 'Changing domains needs update permission on the project' });
    return caller;
  }

  /** The target must be a live application the caller can read; a pin, one of its published versions. */
  async function checkTarget(projectId: string, caller: ProjectCaller, targetId: string, pin: PinChange, pinnedBefore: string | undefined): Promise<void> {
    const application = await deps.applications.live(projectId, targetId);
    if (!application || !rlsAllows(application.access, 'read', caller)) throw invalidTarget('targetId', `no application ${targetId} in this project`);
    const pinned = pinnedAfter(pin, pinnedBefore);
    if (pinned === undefined) return;
    const version = await deps.versions.find(projectId, pinned);
    const published = version !== null && version.applicationId === targetId && version.versionNumber <= (application.publishedVersionNumber ?? 0);
    if (published) return;
    if (pin.kind === 'unchanged') {
      throw invalidTarget('targetVersionId', `the domain stays pinned to ${pinned}, which is not a version of ${targetId}; send a version of ${targetId}, or null to serve its latest`);
    }
    throw invalidTarget('targetVersionId', `no published version ${pinned} of application ${targetId}`);
  }

  typed.get(
    base,
    { schema: { tags: ['domains'], summary: "The project's domains, by hostname", params: projectParams, response: { 200: z.array(domainSchema) } } },
    async (request) => {
      await member(request, request.params.projectId);
      return (await deps.domains.list(request.params.projectId)).map(domainView);
    },
  );

  typed.get(
    `${base}/:domainId`,
    { schema: { tags: ['domains'], summary: 'One domain', params: domainParams, response: { 200: domainSchema } } },
    async (request) => {
      await member(request, request.params.projectId);
      return domainView(await deps.domains.require(request.params.projectId, request.params.domainId));
    },
  );

  typed.post(
    base,
    {
      schema: {
        tags: ['domains'],
        summary: 'Add a domain (hostname unique platform-wide), optionally with its target',
        params: projectParams,
        body: z
          .object({ hostname: hostnameSchema, targetType: z.literal('application').optional(), targetId: idSchema.optional(), targetVersionId: targetVersionIdSchema })
          .refine((body) => body.targetVersionId === undefined || body.targetId !== undefined, { message: 'needs targetId', path: ['targetVersionId'] }),
        response: { 201: domainSchema },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const caller = await manager(request, projectId);
      const { hostname, targetId } = request.body;
      const pin = pinChange(request.body);
      if (targetId) await checkTarget(projectId, caller, targetId, pin, undefined);
      const now = deps.clock();
      const pinned = pinnedAfter(pin, undefined);
      const domain: StoredDomain = {
        id: randomUUID(),
        projectId,
        hostname,
        ...(targetId ? { targetType: 'application' as const, targetId } : {}),
        ...(pinned ? { targetVersionId: pinned } : {}),
        revision: 0,
        createdAt: now,
        updatedAt: now,
      };
      await deps.domains.create(domain);
      deps.resolutions.forgetHostnames([hostname]);
      return reply.code(201).send(domainView(domain));
    },
  );

  typed.patch(
    `${base}/:domainId`,
    {
      schema: { tags: ['domains'], summary: "Change a domain's hostname (targets change through assign)", params: domainParams, body: z.object({ hostname: hostnameSchema }), response: { 200: domainSchema } },
    },
    async (request) => {
      const { projectId, domainId } = request.params;
      await manager(request, projectId);
      const before = await deps.domains.require(projectId, domainId);
      const updated = await deps.domains.update(projectId, domainId, { $set: { hostname: request.body.hostname, updatedAt: deps.clock() }, $inc: { revision: 1 } });
      deps.resolutions.forgetHostnames([before.hostname, updated.hostname]);
      return domainView(updated);
    },
  );

  typed.delete(
    `${base}/:domainId`,
    { schema: { tags: ['domains'], summary: 'Remove a domain; its hostname becomes free', params: domainParams, response: { 200: domainSchema } } },
    async (request) => {
      const { projectId, domainId } = request.params;
      await manager(request, projectId);
      const domain = await deps.domains.require(projectId, domainId);
      if (!(await deps.domains.remove(projectId, domainId))) throw publishingError('PUBLISHING_DOMAIN_NOT_FOUND');
      deps.resolutions.forgetHostnames([domain.hostname]);
      return domainView(domain);
    },
  );

  typed.post(
    `${base}/:domainId/assign`,
    {
      schema: {
        tags: ['domains'],
        summary: 'Point the domain at an application; targetVersionId pins (truthy), unpins (null or falsy) or is left alone (absent)',
        params: domainParams,
        body: assignBody,
        response: { 200: domainSchema },
      },
    },
    async (request) => {
      const { projectId, domainId } = request.params;
      const caller = await manager(request, projectId);
      const before = await deps.domains.require(projectId, domainId);
      const pin = pinChange(request.body);
      await checkTarget(projectId, caller, request.body.targetId, pin, before.targetVersionId);
      const updated = await deps.domains.update(projectId, domainId, assignModifier(request.body, pin, deps.clock()));
      deps.resolutions.forgetHostnames([updated.hostname]);
      return domainView(updated);
    },
  );
}

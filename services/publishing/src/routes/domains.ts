import { randomUUID } from 'node:crypto';
import { requireUser, rlsAllows, type ProjectCaller } from '@platform/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { claimStatus, renameModifier, verificationRecord } from '../domain/claim';
import { assignModifier, assignsNothing, pinChange, pinnedAfter, type PinChange } from '../domain/pin';
import { publishingError } from '../errors';
import type { PublishingDeps } from '../publishing-deps';
import { domainChangeMessages } from '../stores/domain-changes';
import type { StoredDomain } from '../stores/domains';
import { hostnameClaim } from './hostname-claim';
import { domainSchema, hostnameSchema, idSchema, targetVersionIdSchema } from './schemas';
import { verificationFailed } from './verification-failure';

const projectParams = z.object({ projectId: idSchema });
const domainParams = projectParams.extend({ domainId: idSchema });
// Strict: a misspelt `targetVersionId` would otherwise leave the pin as it was and answer 200.
const assignBody = z.object({ targetType: z.literal('application'), targetId: idSchema, targetVersionId: targetVersionIdSchema }).strict();

function domainView(domain: StoredDomain, now: number): z.infer<typeof domainSchema> {
  const { id, projectId, hostname, targetType, targetId, targetVersionId, verificationToken, verificationExpiresAt, verifiedAt, revision, createdAt, updatedAt } = domain;
  return {
    id,
    projectId,
    hostname,
    ...(targetType ? { targetType } : {}),
    ...(targetId ? { targetId } : {}),
    ...(targetVersionId ? { targetVersionId } : {}),
    status: claimStatus(domain, now),
    ...(verifiedAt !== undefined ? { verifiedAt } : {}),
    ...(verificationToken !== undefined ? { verification: { method: 'dns-txt' as const, record: verificationRecord(hostname, verificationToken), expiresAt: verificationExpiresAt ?? 0 } } : {}),
    revision,
    createdAt,
    updatedAt,
  };
}

/** How often a change of a domain is decided again on a fresh read when the domain changed meanwhile. */
const DOMAIN_CHANGE_ATTEMPTS = 8;

function invalidTarget(field: 'targetId' | 'targetVersionId', message: string) {
  return publishingError('PUBLISHING_INVALID_TARGET', { message: `Invalid body.${field}: ${message}`, details: { field } });
}

/**
 * ProjectDomain CRUD, verification and assignment. Members of the project read domains; changing
 * them needs update permission on the project. A hostname belongs to one domain platform-wide; a
 * new or renamed domain is pending until its owner proves control of the hostname by DNS.
 */
export function registerDomainRoutes(app: FastifyInstance, deps: PublishingDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/projects/:projectId/domains';

  const versionNumber = async (projectId: string, versionId: string) => (await deps.versions.find(projectId, versionId))?.versionNumber;

  async function member(request: FastifyRequest, projectId: string): Promise<ProjectCaller> {
    return (await deps.data.projects.require(projectId, requireUser(request))).caller;
  }

  async function manager(request: FastifyRequest, projectId: string): Promise<ProjectCaller> {
    const { project, caller } = await deps.data.projects.require(projectId, requireUser(request));
    if (!rlsAllows(project.access, 'update', caller)) throw publishingError('PUBLISHING_FORBIDDEN', { message: 'Changing domains needs update permission on the project' });
    return caller;
  }

  /**
   * A read-check-write of one domain that cannot act on a stale read: `change` decides from the
   * domain as read and writes only if it is still at that revision (answering null when it is
   * not), so what was checked is what gets changed, and the domain before the change is the one
   * answered and recorded. On a miss the domain is read and the change decided again; after
   * DOMAIN_CHANGE_ATTEMPTS misses, 409. 404 when the domain is gone.
   */
  async function changeDomain<T>(projectId: string, domainId: string, change: (before: StoredDomain) => Promise<T | null>): Promise<T> {
    for (let attempt = 0; attempt < DOMAIN_CHANGE_ATTEMPTS; attempt += 1) {
      const done = await change(await deps.domains.require(projectId, domainId));
      if (done !== null) return done;
    }
    throw publishingError('PUBLISHING_CONCURRENT_DOMAIN_CHANGE');
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
      const now = deps.clock();
      return (await deps.domains.list(request.params.projectId)).map((domain) => domainView(domain, now));
    },
  );

  typed.get(
    `${base}/:domainId`,
    { schema: { tags: ['domains'], summary: 'One domain', params: domainParams, response: { 200: domainSchema } } },
    async (request) => {
      await member(request, request.params.projectId);
      return domainView(await deps.domains.require(request.params.projectId, request.params.domainId), deps.clock());
    },
  );

  typed.post(
    base,
    {
      schema: {
        tags: ['domains'],
        summary: "Add a domain, pending until verified (hostname unique platform-wide), optionally with its target; another project's unverified claim is taken with the DNS record its 409 names",
        description:
          "409 PUBLISHING_HOSTNAME_TAKEN when a verified domain, or a claim of this project, has the hostname. When another project's unverified claim has it, the 409's details.record is a TXT record to publish: sent again once it is in DNS, the domain is created verified and that claim removed.",
        params: projectParams,
        body: z
          .object({ hostname: hostnameSchema, targetType: z.literal('application').optional(), targetId: idSchema.optional(), targetVersionId: targetVersionIdSchema })
          // A key the route does not take (an `id` of the client's choosing, a misspelt `hostName`) is refused rather than ignored.
          .strict()
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
      const id = randomUUID();
      // Pending, or verified at once when it took the hostname from another project's unverified claim.
      const domain = await hostnameClaim(deps, projectId, hostname)(now, async (claim) => {
        const claimed: StoredDomain = {
          id,
          projectId,
          hostname,
          ...(targetId ? { targetType: 'application' as const, targetId } : {}),
          ...(pinned ? { targetVersionId: pinned } : {}),
          ...claim,
          revision: 0,
          createdAt: now,
          updatedAt: now,
        };
        await deps.domains.create(claimed, now);
        return claimed;
      });
      deps.resolutions.forgetHostnames([hostname]);
      await deps.domainChanges.publish(await domainChangeMessages('created', { after: domain }, caller.userId, now, versionNumber));
      return reply.code(201).send(domainView(domain, now));
    },
  );

  typed.patch(
    `${base}/:domainId`,
    {
      schema: {
        tags: ['domains'],
        summary: "Change a domain's hostname, which makes it pending until verified again (targets change through assign)",
        params: domainParams,
        body: z.object({ hostname: hostnameSchema }),
        response: { 200: domainSchema },
      },
    },
    async (request) => {
      const { projectId, domainId } = request.params;
      const { hostname } = request.body;
      const caller = await manager(request, projectId);
      // One for every attempt: a takeover proven by DNS stays proven when the domain changed meanwhile.
      const claim = hostnameClaim(deps, projectId, hostname);
      return changeDomain(projectId, domainId, async (before) => {
        // The same hostname again changes nothing: no write, no revision, no audit item.
        if (hostname === before.hostname) return domainView(before, deps.clock());
        const now = deps.clock();
        const updated = await claim(now, (fields) => deps.domains.renameAt(projectId, domainId, before.revision, hostname, renameModifier(hostname, fields, now), now));
        if (!updated) return null;
        deps.resolutions.forgetHostnames([before.hostname, updated.hostname]);
        await deps.domainChanges.publish(await domainChangeMessages('renamed', { after: updated, before }, caller.userId, now, versionNumber));
        return domainView(updated, now);
      });
    },
  );

  typed.delete(
    `${base}/:domainId`,
    { schema: { tags: ['domains'], summary: 'Remove a domain; its hostname becomes free', params: domainParams, response: { 200: domainSchema } } },
    async (request) => {
      const { projectId, domainId } = request.params;
      const caller = await manager(request, projectId);
      // Only the domain as read is removed, so the answer and the audit item are the domain that went.
      return changeDomain(projectId, domainId, async (domain) => {
        if (!(await deps.domains.removeAt(projectId, domainId, domain.revision))) return null;
        deps.resolutions.forgetHostnames([domain.hostname]);
        const now = deps.clock();
        await deps.domainChanges.publish(await domainChangeMessages('removed', { after: domain }, caller.userId, now, versionNumber));
        return domainView(domain, now);
      });
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
      const pin = pinChange(request.body);
      return changeDomain(projectId, domainId, async (before) => {
        // Checked against the pin as read; written only while the domain still has it.
        await checkTarget(projectId, caller, request.body.targetId, pin, before.targetVersionId);
        // The same target again changes nothing: no write, no revision, no audit item.
        if (assignsNothing(before, request.body, pin)) return domainView(before, deps.clock());
        const now = deps.clock();
        const updated = await deps.domains.updateAt(projectId, domainId, before.revision, assignModifier(request.body, pin, now));
        if (!updated) return null;
        deps.resolutions.forgetHostnames([updated.hostname]);
        await deps.domainChanges.publish(await domainChangeMessages('assigned', { after: updated, before }, caller.userId, now, versionNumber));
        return domainView(updated, now);
      });
    },
  );

  typed.post(
    `${base}/:domainId/verify`,
    {
      schema: {
        tags: ['domains'],
        summary: "Check the domain's DNS TXT record and mark it verified, so it resolves; a verified domain answers as it is",
        params: domainParams,
        response: { 200: domainSchema },
      },
    },
    async (request) => {
      const { projectId, domainId } = request.params;
      const caller = await manager(request, projectId);
      const domain = await deps.domains.require(projectId, domainId);
      const token = domain.verificationToken;
      if (token === undefined) return domainView(domain, deps.clock());
      // An expired claim may still be verified: while it holds its row no other project took the hostname.
      const outcome = await deps.verifier.check(domain.hostname, token);
      if (!outcome.proven) throw verificationFailed(domain.hostname, token, outcome.failure);
      const now = deps.clock();
      const verified = await deps.domains.markVerified(domain, now);
      if (verified) {
        deps.resolutions.forgetHostnames([verified.hostname]);
        await deps.domainChanges.publish(await domainChangeMessages('verified', { after: verified }, caller.userId, now, versionNumber));
        return domainView(verified, now);
      }
      // The domain changed during the check: fine if a concurrent verify did the same; not if it was renamed.
      const current = await deps.domains.require(projectId, domainId);
      if (current.verificationToken !== undefined || current.hostname !== domain.hostname) throw publishingError('PUBLISHING_DOMAIN_CHANGED');
      return domainView(current, deps.clock());
    },
  );
}

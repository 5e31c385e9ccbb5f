import { AppError, requireUser, type ProjectContext } from '@platform/kit';
import type { FastifyRequest } from 'fastify';
import { ID_PATTERN, type DataDeps } from '@platform/documents';
import { dataError } from '../errors';
import { aiMessage, messageLanguage } from './domain/language';
import type { ChatCompletion, ChatProvider, ChatRequest } from './provider/port';
import type { AiUsageLimits } from './usage-limits';

/** The spec's 403 for a project with AI disabled: a body with one `error` field and nothing else. */
export class AiDisabled extends Error {
  readonly statusCode = 403;
}

/** A page of the client under `/projects/{projectId}`, as the help chat's Referer may name it. */
const PROJECT_ROUTE = /\/projects\/([A-Za-z0-9_-]{1,64})(?:[/?#]|$)/;

function projectOfReferer(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return PROJECT_ROUTE.exec(new URL(referer).pathname)?.[1];
  } catch {
    return undefined;
  }
}

function notFoundAsNone(error: unknown): undefined {
  if (error instanceof AppError && error.statusCode === 404) return undefined;
  throw error;
}

function explicitHelpProject(request: FastifyRequest): unknown {
  const fromBody = (request.body as { projectId?: unknown } | undefined)?.projectId;
  return fromBody ?? (request.query as { projectId?: unknown } | undefined)?.projectId;
}

/**
 * The AI gate, run as a route hook so that it decides before the body is parsed (project routes,
 * `onRequest`) or validated (help chat, `preValidation`, which needs the body's `projectId`), and
 * so before any provider call: 401 without a user, 404 for a project the caller cannot see, 403
 * when the project has AI disabled, then 501 when no provider is configured.
 */
export class AiGate {
  private readonly projects = new WeakMap<FastifyRequest, ProjectContext>();

  constructor(
    private readonly deps: DataDeps,
    /** The provider and the budgets its calls are counted against; none when AI is not configured. */
    private readonly provider: { chat: ChatProvider; limits: AiUsageLimits } | undefined,
  ) {}

  /** `onRequest` of routes under `/api/projects/:projectId`. */
  readonly projectRoute = async (request: FastifyRequest): Promise<void> => {
    requireUser(request);
    const projectId = (request.params as { projectId: string }).projectId;
    // An id that cannot exist gets the same 404 as an unknown project.
    if (!ID_PATTERN.test(projectId)) throw new AppError(404, 'PROJECT_NOT_FOUND', 'Project not found');
    this.admit(request, await this.deps.projects.require(projectId, request.principal));
  };

  /** `preValidation` of the help chat: the project named in the body or query, else the Referer's. */
  readonly helpRoute = async (request: FastifyRequest): Promise<void> => {
    requireUser(request);
    const explicit = explicitHelpProject(request);
    if (typeof explicit === 'string' && ID_PATTERN.test(explicit)) {
      this.admit(request, await this.deps.projects.require(explicit, request.principal));
      return;
    }
    // A malformed explicit id is left to validation (400); a Referer only counts when it names a
    // project the caller belongs to, since it may be any page.
    const fromReferer = explicit === undefined ? projectOfReferer(request.headers.referer) : undefined;
    const project = fromReferer ? await this.deps.projects.require(fromReferer, request.principal).catch(notFoundAsNone) : undefined;
    this.admit(request, project);
  };

  /** The project the gate let through, for the handler. */
  projectOf(request: FastifyRequest): ProjectContext {
    const project = this.projects.get(request);
    if (!project) throw new Error('AI route handler ran without its gate');
    return project;
  }

  /**
   * Asks the provider on behalf of the request's caller, once the call is counted against the
   * caller's and the gated project's hourly budgets (429 past either; AiUsageLimits). The gate
   * answered 501 already when there is no provider.
   */
  async complete(request: FastifyRequest, chat: ChatRequest): Promise<ChatCompletion> {
    if (!this.provider) throw dataError('AI_NOT_CONFIGURED');
    await this.provider.limits.take(requireUser(request).userId, this.projects.get(request)?.project.id);
    return this.provider.chat.complete(chat);
  }

  private admit(request: FastifyRequest, project: ProjectContext | undefined): void {
    const language = messageLanguage(request.principal, request.headers['accept-language']);
    if (project && !project.project.aiEnabled) throw new AiDisabled(aiMessage('disabled', language));
    if (!this.provider) throw dataError('AI_NOT_CONFIGURED', { message: aiMessage('notConfigured', language) });
    if (project) this.projects.set(request, project);
  }
}

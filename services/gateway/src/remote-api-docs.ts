import { randomBytes } from 'node:crypto';
import { anonymousPrincipal, type BackendServiceName } from '@platform/contracts';
import { PRINCIPAL_HEADER, type Logger } from '@platform/kit';
import type { OpenAPIV3 } from 'openapi-types';
import { z } from 'zod';
import { cachingPrincipalSigner } from './principal-signer';
import { RouteTemplates } from './route-templates';
import { serviceForPath } from './route-table';

/** The part of a service's OpenAPI document the gateway takes: its paths, each a map of operations. */
const serviceDocumentSchema = z.object({ paths: z.record(z.string(), z.record(z.string(), z.unknown())) });

const FETCH_TIMEOUT_MS = 2_000;
/** How soon a service that has never answered is asked again first (a slow start should not hide its routes for a whole refresh). */
const FIRST_ANSWER_RETRY_MS = 2_000;

/**
 * A W3C trace context whose sampled flag is clear: under the default parent-based sampler the
 * service follows the decision and records nothing (every 30 s and service, the refresh would
 * otherwise be a one-span trace of its own).
 */
function newUnsampledTraceparent(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`;
}

/** `/api/projects/{projectId}/types` as the route table matches it: a parameter is any one segment. */
function routedPath(openapiPath: string): string {
  return openapiPath.replace(/\{[^/}]+\}/g, 'x');
}

/**
 * The OpenAPI paths of the services the gateway proxies to (microservice shape). Each service
 * serves its own document, built from its route schemas; the gateway fetches them at start and
 * every `refreshMs`, keeps the paths its route table sends to that service, and adds them to its
 * own document, so `/api/openapi.json` and `/api/docs` describe the same routes as the all-in-one
 * shape's. A service that cannot be reached keeps the paths it last described and is asked again at
 * the next refresh; one that has not answered yet is asked again after 2 s, then less often (doubling up to
 * the refresh interval) until it does.
 */
export class RemoteApiDocs {
  private readonly paths = new Map<BackendServiceName, OpenAPIV3.PathsObject>();
  /**
   * The route templates of every path above, made when a recorded span first asks after a
   * document changed: with tracing off, or between changes, no router is built.
   */
  private templates: RouteTemplates | undefined;
  private readonly sign: ReturnType<typeof cachingPrincipalSigner>;
  private timer: NodeJS.Timeout | undefined;
  /** A pending early retry per service that has not answered yet, and its failures in a row. */
  private readonly retries = new Map<BackendServiceName, NodeJS.Timeout>();
  private readonly failures = new Map<BackendServiceName, number>();
  private stopped = false;

  constructor(
    private readonly options: { remotes: ReadonlyMap<BackendServiceName, string>; principalSecret: string; refreshMs: number; logger: Logger },
  ) {
    this.sign = cachingPrincipalSigner(options.principalSecret);
  }

  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.options.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    for (const retry of this.retries.values()) clearTimeout(retry);
    this.retries.clear();
  }

  /** The gateway's own document with every remote service's routed paths added. */
  extend(document: OpenAPIV3.Document): OpenAPIV3.Document {
    return { ...document, paths: { ...document.paths, ...this.servicePaths() } };
  }

  /** The template of the service route `method` and `url` reach (a proxied request's span name), if a document describes it. */
  routeTemplate(method: string, url: string): string | undefined {
    this.templates ??= new RouteTemplates(this.servicePaths());
    return this.templates.templateOf(method, url);
  }

  /** Every remote service's routed paths in one object. */
  private servicePaths(): OpenAPIV3.PathsObject {
    return Object.assign({}, ...this.paths.values()) as OpenAPIV3.PathsObject;
  }

  private async refresh(): Promise<void> {
    await Promise.all([...this.options.remotes].map(([service, url]) => this.fetchPaths(service, url)));
  }

  private async fetchPaths(service: BackendServiceName, url: string): Promise<void> {
    try {
      // Services answer only requests the gateway signed; the document needs no user. Housekeeping,
      // not a trace worth keeping: sent as part of a trace left out, so a service records no span.
      const headers = { [PRINCIPAL_HEADER]: this.sign(anonymousPrincipal), traceparent: newUnsampledTraceparent() };
      const response = await fetch(`${url}/api/openapi.json`, { headers, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const { paths } = serviceDocumentSchema.parse(await response.json());
      const routed = Object.entries(paths).filter(([path]) => serviceForPath(routedPath(path)) === service);
      this.paths.set(service, Object.fromEntries(routed) as OpenAPIV3.PathsObject);
      this.templates = undefined;
      this.failures.delete(service);
    } catch (error) {
      const failures = (this.failures.get(service) ?? 0) + 1;
      this.failures.set(service, failures);
      // Said once per outage; the retries that follow log at debug.
      this.options.logger[failures === 1 ? 'warn' : 'debug']({ service, err: error }, 'could not read the service OpenAPI document; /api/openapi.json lacks its new paths until it answers');
      if (!this.paths.has(service) && !this.stopped) this.retrySoon(service, url, failures);
    }
  }

  /** One pending retry per service, 2 s after the first failure and doubling up to the refresh interval. */
  private retrySoon(service: BackendServiceName, url: string, failures: number): void {
    if (this.retries.has(service)) return;
    const delayMs = Math.min(FIRST_ANSWER_RETRY_MS * 2 ** (failures - 1), this.options.refreshMs);
    const retry = setTimeout(() => {
      this.retries.delete(service);
      void this.fetchPaths(service, url);
    }, delayMs);
    retry.unref();
    this.retries.set(service, retry);
  }
}

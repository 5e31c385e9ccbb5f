import Router from 'find-my-way';
import type { OpenAPIV3 } from 'openapi-types';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

type Method = Uppercase<(typeof METHODS)[number]>;

/** `/api/projects/{projectId}/types` as a router template: `/api/projects/:projectId/types`. */
function routerTemplate(openapiPath: string): string {
  return openapiPath.replace(/\{([^/}]+)\}/g, ':$1');
}

/**
 * The route templates of the services behind the gateway, from their OpenAPI documents, so that a
 * proxied request's span is named after the route that served it (`POST
 * /api/projects/:projectId/types/:typeId/data`) rather than the proxy prefix that forwarded it
 * (`.../types/*`), as in the all-in-one shape: a trace backend lists traces by their root span's
 * name. Matched with find-my-way, Fastify's own router, so a path finds the template the service's
 * router chose.
 */
export class RouteTemplates {
  private readonly router = Router({ ignoreTrailingSlash: true });

  constructor(paths: OpenAPIV3.PathsObject) {
    for (const [path, item] of Object.entries(paths)) {
      const template = routerTemplate(path);
      for (const method of METHODS) {
        if (!item?.[method]) continue;
        try {
          this.router.on(method.toUpperCase() as Method, template, () => undefined, { template });
        } catch {
          // A path the router cannot take beside the others keeps the proxy's name; the services' routers took them all.
        }
      }
    }
  }

  /** The template of the route `method` and `url` reach, or undefined for one the documents do not describe. */
  templateOf(method: string, url: string): string | undefined {
    const found = this.router.find(method as Method, url.split('?', 1)[0]!);
    return (found?.store as { template: string } | undefined)?.template;
  }
}

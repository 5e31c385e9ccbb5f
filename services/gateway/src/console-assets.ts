import { existsSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import { AppError, type Logger } from '@platform/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where the web console lives; its paths load no session (the page calls the API itself). */
export const CONSOLE_PREFIX = '/console';

/** The console's public check-in kiosk pages (`/kiosk/{projectId}/{applicationId}`): the same app, no session. */
export const KIOSK_PREFIX = '/kiosk';

/** True for `/console`, the kiosk pages and everything below them. */
export const isConsolePath = (path: string): boolean => [CONSOLE_PREFIX, KIOSK_PREFIX].some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/**
 * The console's own policy: its scripts, styles and API calls from this origin only, nothing
 * inline, no framing. The gateway-wide policy (`default-src 'none'`) would block the page.
 */
const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/**
 * Whether a requested path stays inside the console's directory. Checked before the file system is
 * asked: `..%2F` segments reach the wildcard decoded, and whether a file outside exists must not
 * show in the answer.
 */
function staysInside(root: string, path: string): boolean {
  return resolve(root, path).startsWith(resolve(root) + sep);
}

/** Vite names every file under assets/ by its content hash, so a browser may keep it for a year. */
const HASHED_ASSETS = 'assets/';

function withConsolePolicy(reply: FastifyReply): FastifyReply {
  return reply.header('content-security-policy', CONSOLE_CSP);
}

/**
 * Serves the built console (`apps/console/dist`) at /console: hashed assets with a long immutable
 * cache, other files and every unknown path without extension (the SPA's own routes) answered by
 * index.html, never cached so a new build is picked up at once; so is every /kiosk/ path. A missing
 * build answers 503 with the command that makes it.
 */
export async function registerConsole(app: FastifyInstance, options: { root: string; logger: Logger }): Promise<void> {
  const built = existsSync(join(options.root, 'index.html'));
  if (!built) options.logger.warn({ root: options.root }, 'console not built: /console answers 503 until `pnpm --filter @platform/console build` runs');
  await app.register(fastifyStatic, { root: options.root, serve: false });

  const sendUncached = (reply: FastifyReply, path: string) => withConsolePolicy(reply).header('cache-control', 'no-cache').sendFile(path, options.root, { cacheControl: false });

  const serve = async (request: FastifyRequest, reply: FastifyReply, path: string) => {
    // Relative asset URLs resolve against /console/, so the bare prefix moves there first.
    if (request.url.split('?')[0] === CONSOLE_PREFIX) return reply.redirect(`${CONSOLE_PREFIX}/`);
    if (!built) throw new AppError(503, 'GATEWAY_CONSOLE_NOT_BUILT', 'The console is not built; run `pnpm --filter @platform/console build`');
    if (path !== '' && !staysInside(options.root, path)) throw new AppError(404, 'NOT_FOUND', 'Not found');
    if (path.startsWith(HASHED_ASSETS)) return withConsolePolicy(reply).sendFile(path, options.root, { maxAge: '365d', immutable: true });
    if (extname(path) !== '' && existsSync(join(options.root, path))) return sendUncached(reply, path);
    return sendUncached(reply, 'index.html');
  };
  // One handler for both: the router lets `/console/` reach the bare route, which must not redirect it again.
  app.get(CONSOLE_PREFIX, { schema: { hide: true } }, (request, reply) => serve(request, reply, ''));
  app.get(`${CONSOLE_PREFIX}/*`, { schema: { hide: true } }, (request, reply) => serve(request, reply, (request.params as { '*': string })['*']));
  // The kiosk is a route of the same app; its page loads the assets from /console/assets.
  app.get(`${KIOSK_PREFIX}/*`, { schema: { hide: true } }, (request, reply) => serve(request, reply, ''));
}

import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Helmet's headers on every gateway response (X-Content-Type-Options, Strict-Transport-Security,
 * Referrer-Policy, the cross-origin policies, ...), framing refused, and a Content-Security-Policy
 * that allows nothing: the gateway answers JSON, text and the SVG avatar, none of which may run a
 * script or load anything when opened directly. The API docs' HTML, the one page that needs
 * scripts, sets its own policy (the kit's app factory, `/api/docs`).
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"], frameAncestors: ["'none'"] },
    },
    frameguard: { action: 'deny' },
  });
}

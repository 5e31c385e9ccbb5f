import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_DOCS_PREFIX } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"], frameAncestors: ["'none'"] },
  },
  frameguard: { action: 'deny' },
};

/**
 * What an API answer (JSON, text, the SVG avatar) carries of helmet's
 * headers: the set OWASP's REST Security Cheat Sheet asks of an API (no sniffing, no framing, a
 * policy that allows nothing, HSTS) and the resource policy that keeps other sites from embedding
 * it. The rest of helmet's headers instruct a browser about a page it renders (its browsing
 * context group, agent cluster, referrers, DNS prefetching of its links) or about legacy clients
 * (IE's download prompt and XSS filter, Flash's cross-domain policies); they stay on the pages.
 * Each header is work for every client and proxy on every answer: the seven cost the gateway
 * about 3% of its proxied throughput (BENCHMARKS.md, gateway overhead).
 */
const API_HEADER_NAMES = new Set(['content-security-policy', 'cross-origin-resource-policy', 'strict-transport-security', 'x-content-type-options', 'x-frame-options']);

/**
 * The headers helmet sets with these options. None depends on the request, so they are computed
 * once: running helmet's middleware chain on every response cost about 3% of a write's time.
 */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, collector as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}

/** Everything under `/api/` but the Swagger UI's pages is an API answer; the rest (the console, `/llm.txt`, ...) are pages. */
function isApiAnswerPath(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith(API_DOCS_PREFIX);
}

/**
 * Helmet's headers on every gateway response: on pages all of them (X-Content-Type-Options,
 * Strict-Transport-Security, Referrer-Policy, the cross-origin policies, ...), on API answers the
 * API's set above. Framing is refused, and the Content-Security-Policy allows nothing: the
 * gateway answers JSON, text and the SVG avatar, none of which may run a script or load anything
 * when opened directly. The pages that need scripts set their own policy (the console, and the
 * API docs' HTML through the kit's app factory, `/api/docs`).
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const pageHeaders = helmetHeaders(HELMET_OPTIONS);
  const apiHeaders = Object.fromEntries(Object.entries(pageHeaders).filter(([name]) => API_HEADER_NAMES.has(name)));
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiAnswerPath(request.url) ? apiHeaders : pageHeaders);
    done();
  });
}

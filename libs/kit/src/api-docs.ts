import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

/** Where every process serves the Swagger UI: its pages are HTML documents (the gateway's security headers treat them as pages). */
export const API_DOCS_PREFIX = '/api/docs';

/**
 * The introduction at the top of `/api/docs` and in the OpenAPI document's `info.description`
 * (Markdown): what the platform is, how to sign in, and where the guides are.
 */
export const API_DESCRIPTION = [
  'A multi-tenant backend: projects hold typed documents with full change history, clients keep offline copies and sync incrementally with conflict detection, row-level security guards every entity, applications are published as immutable versions, workflow actions run on document events, and a project-wide audit trail records every change.',
  '',
  '**Sign in first.** `POST /api/auth/register` (or `POST /api/auth/login`) answers a `token` and sets the `session` cookie, so *Try it out* works on this page afterwards; other clients send `Authorization: Bearer <token>` (the *Authorize* button). Errors are JSON `{ error, code, details? }`, and a 400 names the failing field.',
  '',
  '**Documents** are JSON objects: a type may give them a JSON Schema (`GET /api/projects/{projectId}/types/{typeId}/schema`), otherwise their fields are free JSON. Every write answers the document with its `revision`; a `PATCH` names the `baseRevision` it was made on and answers 409 with the server version when someone changed it since.',
  '',
  "**Guides** (the repository's `docs/`, served here): [interface](/docs/interface.md) (every endpoint and the rules that hold everywhere), [identity](/docs/identity.md) (accounts, sessions, projects), [data](/docs/data.md) (documents, history, pulls, conflicts), [sync](/docs/sync.md) (realtime notifications, the sync client), [architecture](/docs/architecture.md), and one page per service: [tenants](/docs/tenants.md), [audit](/docs/audit.md), [publishing](/docs/publishing.md), [actions](/docs/actions.md), [ai](/docs/ai.md), [visitors](/docs/visitors.md), [widgets](/docs/widgets.md). For agents: [/llm.txt](/llm.txt). This document as JSON: [/api/openapi.json](/api/openapi.json).",
].join('\n');

/** The platform's mark for the Swagger UI's top bar and the tab's icon, instead of Fastify's and Swagger's. */
const PLATFORM_MARK = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40" viewBox="0 0 200 40"><rect x="2" y="6" width="28" height="28" rx="6" fill="#62a03f"/><path d="M10 27V13h7a4.5 4.5 0 0 1 0 9h-4" fill="none" stroke="#fff" stroke-width="3"/><text x="40" y="27" font-family="sans-serif" font-size="18" font-weight="bold" fill="#fff">Platform API</text></svg>',
);

/** How `/api/docs` presents itself: the page title, the top bar's logo (linking to the page itself) and the favicon. */
export const apiDocsAppearance: Pick<FastifySwaggerUiOptions, 'theme' | 'logo'> = {
  theme: {
    title: 'Platform API',
    favicon: [{ filename: 'platform.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: PLATFORM_MARK }],
  },
  logo: { type: 'image/svg+xml', content: PLATFORM_MARK, href: API_DOCS_PREFIX, target: '_self' },
};

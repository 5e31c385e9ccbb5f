import type { BackendServiceName } from '@platform/contracts';

/**
 * The one central route table: which service answers each path prefix. A prefix covers itself
 * and everything below it. More specific prefixes win (Fastify's router prefers static segments
 * over parameters over wildcards), so `/applications/:appId/publish` goes to publishing while the
 * rest of `/applications` goes to data. Paths the gateway answers itself (`/api/health`,
 * `/api/openapi.json`, `/api/docs`, `/llm.txt`, `/docs/widgets/llm.txt`, `/api/realtime`) are not
 * listed.
 */
export const routeTable: ReadonlyArray<{ prefix: string; service: BackendServiceName }> = [
  { prefix: '/api/auth', service: 'identity' },
  { prefix: '/api/me', service: 'identity' },
  { prefix: '/api/invitations', service: 'identity' },
  { prefix: '/api/users', service: 'identity' },
  { prefix: '/api/tenants', service: 'identity' },
  { prefix: '/api/admin', service: 'identity' },
  { prefix: '/api/projects', service: 'identity' },
  { prefix: '/api/projects/:projectId/members', service: 'identity' },
  { prefix: '/api/projects/:projectId/ai-settings', service: 'identity' },
  { prefix: '/api/projects/:projectId/types', service: 'data' },
  { prefix: '/api/projects/:projectId/types.d.ts', service: 'data' },
  { prefix: '/api/schemas', service: 'data' },
  { prefix: '/api/projects/:projectId/applications', service: 'data' },
  { prefix: '/api/projects/:projectId/ai-agents', service: 'data' },
  { prefix: '/api/projects/:projectId/ai-usage', service: 'data' },
  { prefix: '/api/help', service: 'data' },
  { prefix: '/api/projects/:projectId/audit-trail', service: 'audit' },
  { prefix: '/api/projects/:projectId/applications/:appId/publish', service: 'publishing' },
  { prefix: '/api/projects/:projectId/applications/:appId/versions', service: 'publishing' },
  { prefix: '/api/projects/:projectId/domains', service: 'publishing' },
  { prefix: '/api/public/domains', service: 'publishing' },
  { prefix: '/api/projects/:projectId/actions', service: 'actions' },
  { prefix: '/api/actions', service: 'actions' },
  { prefix: '/api/projects/:projectId/visitors', service: 'visitors' },
];

/**
 * Paths the gateway answers without loading a session: the spec's bypass list names
 * `/api/health`; the agent docs need no session either, so they skip the session store too.
 */
export const sessionBypassList: ReadonlySet<string> = new Set(['/api/health', '/llm.txt', '/docs/widgets/llm.txt']);

function prefixPattern(prefix: string): RegExp {
  const body = prefix
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}(?:/.*)?$`);
}

const compiled = routeTable.map((entry) => ({ ...entry, pattern: prefixPattern(entry.prefix), specificity: entry.prefix.split('/').length }));

/** Which service the table sends a path to (the most specific matching prefix), if any. */
export function serviceForPath(path: string): BackendServiceName | undefined {
  let best: (typeof compiled)[number] | undefined;
  for (const entry of compiled) {
    if (entry.pattern.test(path) && (!best || entry.specificity > best.specificity)) best = entry;
  }
  return best?.service;
}

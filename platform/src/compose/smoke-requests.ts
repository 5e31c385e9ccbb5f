import { randomBytes } from 'node:crypto';

/** How long the audit trail may take to show a write (it follows the document events). */
const TRAIL_TIMEOUT_MS = 20_000;

async function call(gatewayUrl: string, step: string, expected: number, method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<any> {
  const response = await fetch(`${gatewayUrl}${path}`, {
    method,
    headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${step}: ${method} ${path} answered ${response.status}, expected ${expected}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * The requests that show a deployment works end to end through its gateway: a guide, sign-up, a project,
 * a type and a document, and the document's creation in the audit trail (written by the audit
 * service from the bus). With `promoteOwner`, the new account is made platform owner by the
 * operator command and must then see every service up in /api/health. Throws naming the step
 * that failed; answers the steps that passed.
 */
export async function runSmokeRequests(gatewayUrl: string, options: { promoteOwner?: (email: string) => Promise<void> } = {}): Promise<string[]> {
  const passed: string[] = [];
  await call(gatewayUrl, 'health', 200, 'GET', '/api/health');
  passed.push('health');
  // The guides /api/docs links to, which the image copies beside the bundle.
  const guide = await fetch(`${gatewayUrl}/docs/architecture.md`, { signal: AbortSignal.timeout(15_000) });
  const guideText = await guide.text();
  if (guide.status !== 200 || !guideText.startsWith('# ')) throw new Error(`guides: GET /docs/architecture.md answered ${guide.status}: ${guideText.slice(0, 300)}`);
  passed.push('guides');
  const email = `smoke-${randomBytes(4).toString('hex')}@example.org`;
  const { token } = (await call(gatewayUrl, 'sign-up', 201, 'POST', '/api/auth/register', { body: { email, password: 'smoke password 1', displayName: 'Smoke' } })) as { token: string };
  passed.push('sign-up');
  const project = (await call(gatewayUrl, 'project', 201, 'POST', '/api/projects', { token, body: { name: 'Smoke' } })) as { id: string };
  await call(gatewayUrl, 'type', 201, 'POST', `/api/projects/${project.id}/types`, { token, body: { id: 'notes', name: 'Notes' } });
  await call(gatewayUrl, 'document', 201, 'POST', `/api/projects/${project.id}/types/notes/data`, { token, body: { id: 'smoke-note', title: 'Smoke' } });
  passed.push('document');
  const deadline = Date.now() + TRAIL_TIMEOUT_MS;
  let trail: { items: Array<{ entityId: string; changeDescription: string }> };
  for (;;) {
    trail = (await call(gatewayUrl, 'audit trail', 200, 'GET', `/api/projects/${project.id}/audit-trail?typeId=notes`, { token })) as { items: Array<{ entityId: string; changeDescription: string }> };
    if (trail.items.some((item) => item.entityId === 'smoke-note' && item.changeDescription === 'audit.created')) break;
    if (Date.now() > deadline) throw new Error(`audit trail: the document's creation did not appear within ${TRAIL_TIMEOUT_MS} ms: ${JSON.stringify(trail).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  passed.push('audit trail');
  if (options.promoteOwner) {
    await options.promoteOwner(email);
    const health = (await call(gatewayUrl, 'owner health', 200, 'GET', '/api/health', { token })) as { status: string; services?: Record<string, { up: boolean }> };
    const down = Object.entries(health.services ?? {}).filter(([, state]) => !state.up);
    if (health.status !== 'ok' || !health.services || down.length) throw new Error(`owner health: ${JSON.stringify(health).slice(0, 400)}`);
    passed.push('promote-owner');
  }
  return passed;
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAccount } from './testing/platform-http';
import { startEntry, type StartedEntry } from './testing/process-entry';

describe('OTEL_TRACES_EXPORTER=console: traces in the process log, for a developer without a collector', () => {
  let dataDir: string;
  let platform: StartedEntry;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'console-traces-'));
    platform = await startEntry({ PORT: '0', DATA_DIR: dataDir, OTEL_TRACES_EXPORTER: 'console' });
  }, 60_000);

  afterAll(async () => {
    platform?.child.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  });

  it("writes one write's spans as log lines under one trace id, beside the lines that carry it (the access line, the mails)", async () => {
    const { token } = await registerAccount(platform.call, 'tracer');
    const project = await platform.call('POST', '/api/projects', token, { name: 'traced' });
    expect((await platform.call('POST', `/api/projects/${project.body.id}/types`, token, { id: 'notes', name: 'notes' })).status).toBe(201);
    const action = await platform.call('POST', `/api/projects/${project.body.id}/actions`, token, {
      title: 'Mail each note',
      triggers: [{ id: 'created', triggerName: 'documentCreated', configuration: { typeId: 'notes' } }],
      blocks: [{ id: 'mail', blockName: 'send-mail', configuration: { to: 'notes@example.org', subject: 'New note', text: 'see it' } }],
    });
    expect(action.status).toBe(201);
    const created = await platform.call('POST', `/api/projects/${project.body.id}/types/notes/data`, token, { title: 'one' });
    expect(created.status).toBe(201);

    const spanLines = () => platform.logs().filter((line) => typeof line.msg === 'string' && line.msg.startsWith('span '));
    const route = 'POST /api/projects/:projectId/types/:typeId/data';
    const request = () => spanLines().find((line) => (line.msg as string).startsWith(`span ${route} `));
    await expect.poll(() => request() !== undefined, { timeout: 10_000 }).toBe(true);
    const traceId = request()!.trace_id as string;
    const names = () => spanLines().filter((line) => line.trace_id === traceId).map((line) => (line.msg as string).replace(/ [\d.]+ ms$/, ''));
    // The consumers' spans end after the answer.
    await expect.poll(() => names(), { timeout: 10_000 }).toEqual(
      expect.arrayContaining([`span ${route}`, 'span store insertOne', 'span outbox drain', 'span publish platform.docs.created', 'span consume audit-trail', 'span consume actions-executor']),
    );
    const inTrace = spanLines().filter((line) => line.trace_id === traceId);
    const ids = new Set(inTrace.map((line) => line.span_id));
    // Every span but the request's hangs under another span of the same trace.
    expect(inTrace.filter((line) => !ids.has(line.parent_span_id)).map((line) => line.msg)).toEqual([request()!.msg]);
    expect(request()).toMatchObject({ kind: 'server', level: 30 });
    // The request's access line names the same trace, so the log leads from one to the other.
    const access = platform.logs().find((line) => line.msg === 'request' && line.method === 'POST' && String(line.url).endsWith('/types/notes/data'));
    expect(access).toMatchObject({ trace_id: traceId, span_id: request()!.span_id });
    // So do the lines written for the trace outside the request: the action's mail, and the sign-up's welcome mail in its own trace.
    await expect.poll(() => platform.logs().find((line) => line.msg === 'mail to notes@example.org: New note')?.trace_id, { timeout: 10_000 }).toBe(traceId);
    const signUp = spanLines().find((line) => (line.msg as string).startsWith('span POST /api/auth/register '));
    expect(platform.logs().find((line) => String(line.msg).endsWith(': Welcome to the platform'))).toMatchObject({ trace_id: signUp!.trace_id });
  }, 60_000);
});

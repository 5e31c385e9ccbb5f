import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerAccount, type HttpCall } from './testing/platform-http';
import { exitOf, startEntry } from './testing/process-entry';

/** Enough writes at once that audit and the actions executor still lag when the last answer arrives. */
const BULK_REQUESTS = 4;
const OPERATIONS_PER_REQUEST = 400;
const CHANGES = 2 * BULK_REQUESTS * OPERATIONS_PER_REQUEST;

const noteId = (request: number, index: number) => `note-${request}-${index}`;

/** BULK_REQUESTS bulk requests at once, each of OPERATIONS_PER_REQUEST operations; every one must be acknowledged. */
async function bulkAtOnce(call: HttpCall, token: string, projectId: string, operation: (request: number, index: number) => Record<string, unknown>): Promise<void> {
  const answers = await Promise.all(
    Array.from({ length: BULK_REQUESTS }, (_, request) =>
      call('POST', `/api/projects/${projectId}/types/notes/data/bulk`, token, { operations: Array.from({ length: OPERATIONS_PER_REQUEST }, (_, index) => operation(request, index)) }),
    ),
  );
  for (const answer of answers) expect(answer.body.results.every((result: { status: number }) => result.status < 300)).toBe(true);
}

/** A project with a type and an action on its documents' creates and updates; then the notes created and patched in bulk. */
async function writeLoad(call: HttpCall): Promise<{ token: string; projectId: string; actionId: string }> {
  const { token } = await registerAccount(call, 'crasher');
  const project = await call('POST', '/api/projects', token, { name: 'Crash' });
  expect(project.status).toBe(201);
  const projectId = project.body.id as string;
  expect((await call('POST', `/api/projects/${projectId}/types`, token, { id: 'notes', name: 'Notes' })).status).toBe(201);
  const action = await call('POST', `/api/projects/${projectId}/actions`, token, {
    title: 'Look at every note',
    triggers: [
      { id: 'created', triggerName: 'documentCreated', configuration: { typeId: 'notes' } },
      { id: 'updated', triggerName: 'documentUpdated', configuration: { typeId: 'notes' } },
    ],
    blocks: [{ id: 'check', blockName: 'conditional-logic', configuration: { path: 'data.document.title', operator: 'truthy' } }],
    connections: [],
  });
  expect(action.status).toBe(201);
  await bulkAtOnce(call, token, projectId, (request, index) => ({ op: 'create', fields: { id: noteId(request, index), title: `note ${index}` } }));
  await bulkAtOnce(call, token, projectId, (request, index) => ({ op: 'patch', id: noteId(request, index), modifier: { $set: { title: `edited ${index}` } }, baseRevision: 0 }));
  return { token, projectId, actionId: action.body.id as string };
}

const auditTotal = async (call: HttpCall, token: string, projectId: string) => (await call('GET', `/api/projects/${projectId}/audit-trail?typeId=notes&limit=1`, token)).body.total as number;
const runTotal = async (call: HttpCall, token: string, projectId: string, actionId: string) => (await call('GET', `/api/projects/${projectId}/actions/${actionId}/runs?pageSize=1`, token)).body.total as number;
const runningTotal = async (call: HttpCall, token: string, projectId: string, actionId: string) => (await call('GET', `/api/projects/${projectId}/actions/${actionId}/runs?pageSize=1&status=running`, token)).body.total as number;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a crash of the all-in-one', () => {
  let dataDir: string;
  const running: ChildProcess[] = [];

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'crash-events-'));
  });
  afterEach(async () => {
    for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('loses no acknowledged change\'s event: after SIGKILL and a restart, one audit item and one action run per change, every run settled', async () => {
    const first = await startEntry({ PORT: '0', DATA_DIR: dataDir });
    running.push(first.child);
    const { token, projectId, actionId } = await writeLoad(first.call);
    first.child.kill('SIGKILL');
    expect(await exitOf(first.child)).toEqual({ code: null, signal: 'SIGKILL' });

    // A second crash a moment after the restart listens, while its consumers still work on what it
    // published again: an outbox entry pulled before they had it would be lost for good.
    const second = await startEntry({ PORT: '0', DATA_DIR: dataDir });
    running.push(second.child);
    await pause(1_000);
    second.child.kill('SIGKILL');
    expect(await exitOf(second.child)).toEqual({ code: null, signal: 'SIGKILL' });

    const third = await startEntry({ PORT: '0', DATA_DIR: dataDir });
    running.push(third.child);
    await expect.poll(() => auditTotal(third.call, token, projectId), { timeout: 60_000, interval: 500 }).toBe(CHANGES);
    await expect.poll(() => runTotal(third.call, token, projectId, actionId), { timeout: 60_000, interval: 500 }).toBe(CHANGES);
    // Runs the crashed processes left `running` are marked interrupted once their lease lapses (the
    // lease was 10 minutes, and their project's later actions waited that long behind them).
    await expect.poll(() => runningTotal(third.call, token, projectId, actionId), { timeout: 60_000, interval: 500 }).toBe(0);
    // Events the earlier processes' consumers had handled but not yet pulled come again: nothing more is recorded or run.
    await pause(3_000);
    expect({ audit: await auditTotal(third.call, token, projectId), runs: await runTotal(third.call, token, projectId, actionId), running: await runningTotal(third.call, token, projectId, actionId) }).toEqual({ audit: CHANGES, runs: CHANGES, running: 0 });
    third.child.kill('SIGTERM');
    expect(await exitOf(third.child)).toEqual({ code: 0, signal: null });
  }, 180_000);
});

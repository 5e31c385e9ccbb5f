import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceRegistry } from './service-registry';

let platform: TestGateway;
let directory: string;

beforeAll(async () => {
  platform = await startTestGateway({ services: Object.values(serviceRegistry) });
  directory = await mkdtemp(join(tmpdir(), 'typed-api-client-'));
});

afterAll(async () => {
  await platform?.close();
  await rm(directory, { recursive: true, force: true });
});

/** Type-checks `files` (name → source) strictly; answers the diagnostics as text. */
function typeCheck(files: Record<string, string>): string[] {
  const options: ts.CompilerOptions = { strict: true, noEmit: true, noUnusedLocals: false, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, skipLibCheck: true, types: [] };
  const program = ts.createProgram(Object.keys(files).map((name) => join(directory, name)), options);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => `${diagnostic.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
}

describe('a TypeScript client generated from /api/openapi.json', () => {
  it('types history entries, conflict details, pull pages and query parameters, and the real answers fit them', async () => {
    const owner = await platform.signIn('owner');
    const projectId = await platform.seedProject({ ownerId: 'owner' });
    const type = await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner, body: { name: 'Typed' } });
    const path = `/api/projects/${projectId}/types/${type.body.id}/data`;
    const created = await platform.call('POST', path, { token: owner, body: { title: 'one', tags: ['a'] } });
    await platform.call('PATCH', `${path}/${created.body.id}`, { token: owner, body: { modifier: { $set: { title: 'theirs' } }, baseRevision: 0 } });
    const conflict = await platform.call('PATCH', `${path}/${created.body.id}`, { token: owner, body: { modifier: { $set: { title: 'mine' } }, baseRevision: 0 } });
    expect(conflict.status).toBe(409);
    const history = await platform.call('GET', `${path}/${created.body.id}?includeChanges=1`, { token: owner });
    expect(history.status).toBe(200);
    const page = await platform.call('GET', `${path}?updatedAt=0&limit=1&includeChanges=0`, { token: owner });
    expect(page.status).toBe(200);

    const document = await (await fetch(`${platform.url}/api/openapi.json`)).json();
    const generated = astToString(await openapiTS(document));
    const documentPath = '/api/projects/{projectId}/types/{typeId}/data/{id}';
    await writeFile(join(directory, 'api.ts'), generated);
    const usage = `
import type { paths } from './api';
type Entity = paths['${documentPath}']['get']['responses'][200]['content']['application/json'];
type Conflict = paths['${documentPath}']['patch']['responses'][409]['content']['application/json'];
type Page = paths['/api/projects/{projectId}/types/{typeId}/data']['get']['responses'][200]['content']['application/json'];
type PullQuery = NonNullable<paths['/api/projects/{projectId}/types/{typeId}/data']['get']['parameters']['query']>;
type TrailQuery = NonNullable<paths['/api/projects/{projectId}/audit-trail']['get']['parameters']['query']>;

const entity: Entity = ${JSON.stringify(history.body)};
const conflict: Conflict = ${JSON.stringify(conflict.body)};
const page: Page = ${JSON.stringify(page.body)};

export function historyOf(value: Entity): Array<{ who: string; when: number; base: number; operators: string[] }> {
  return (value.changes ?? []).map((change) => ({ who: change.userId, when: change.timestamp, base: change.baseRevision, operators: Object.keys(change.modifier) }));
}
export function resolve(value: Conflict): Array<{ path: string; base: unknown; theirs: unknown; mine: unknown; touched: boolean }> | string {
  if (value.code !== 'DATA_REVISION_CONFLICT') return value.error;
  const details = value.details;
  if (!('fields' in details)) return details.reason;
  const current: number = details.current.revision;
  const since: string[] = details.changesSince.map((change) => change.userId);
  void current;
  void since;
  return details.fields.map((field) => ({ path: field.path, base: field.base, theirs: field.theirs, mine: field.mine, touched: field.serverTouched }));
}
export const next: string | undefined = page.cursor;
export const pull: PullQuery = { updatedAt: 5, limit: 10, includeChanges: '1' };
export const trail: TrailQuery = { page: 2, limit: 20, from: 0, to: 1767225600000 };
// @ts-expect-error a change's timestamp is a number, not any
export const notAny: string = entity.changes?.[0]?.timestamp;
export const used = [historyOf(entity), resolve(conflict)];
`;
    await writeFile(join(directory, 'usage.ts'), usage);
    expect(typeCheck({ 'api.ts': generated, 'usage.ts': usage })).toEqual([]);
  }, 60_000);
});

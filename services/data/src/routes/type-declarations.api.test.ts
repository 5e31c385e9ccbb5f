import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataService } from '../app';

const run = promisify(execFile);
const repository = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const tsc = createRequire(join(repository, 'package.json')).resolve('typescript/bin/tsc');
const sdkEntry = join(repository, 'libs/sync-client/src/index.js');

let platform: TestGateway;
let projectId: string;
let token: string;
let workDir: string;

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService] });
  token = await platform.signIn('owner');
  projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'reader', permissions: [] }] });
  workDir = await mkdtemp(join(tmpdir(), 'type-declarations-'));
  const contacts = {
    type: 'object',
    $defs: { address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    properties: { name: { type: 'string' }, age: { type: 'integer' }, home: { $ref: '#/$defs/address' }, tags: { type: 'array', items: { enum: ['friend', 'work'] } } },
    required: ['name'],
  };
  for (const body of [
    { id: 'contacts', name: 'Contacts', schema: contacts },
    { id: 'my-notes', name: 'Notes */ declare const injected: 1; /*', schema: { type: 'object', properties: { text: { type: 'string', description: 'x */ export const y = 2; /*' } } } },
    { id: 'loose', name: 'No schema' },
    { id: 'secret', name: 'Secret', schema: { type: 'object', properties: { code: { type: 'string' } } }, access: { read: { userIds: ['owner'] } } },
  ]) {
    const created = await platform.call('POST', `/api/projects/${projectId}/types`, { token, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }
});

afterAll(async () => {
  await platform?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

const declarationsPath = () => `/api/projects/${projectId}/types.d.ts`;

/** tsc's diagnostics for the files (empty when they compile), against the SDK's sources. */
async function typeCheck(files: Record<string, string>): Promise<string> {
  for (const [name, text] of Object.entries(files)) await writeFile(join(workDir, name), text);
  await writeFile(join(workDir, 'package.json'), JSON.stringify({ type: 'module' }));
  const compilerOptions = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: [], strict: true, noEmit: true, skipLibCheck: true };
  await writeFile(join(workDir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: Object.keys(files) }));
  return run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: workDir, timeout: 120_000 }).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
}

describe('GET /api/projects/{p}/types.d.ts', () => {
  it('declares the readable types for typed SDK collections: a typed example compiles, a wrong field does not', async () => {
    const answer = await platform.call('GET', declarationsPath(), { token: await platform.signIn('reader') });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/typescript');
    const declarations = answer.body as string;
    expect(declarations).toContain('export interface ProjectTypes');
    expect(declarations).not.toContain('Secret');
    // Indented for reading: every member two spaces a level.
    expect(declarations).toMatch(/\nexport interface ProjectTypes \{\n  contacts: Contacts\n/);

    const client = `
      import { SyncClient, MemoryStore } from ${JSON.stringify(sdkEntry)};
      import type { Contacts, ProjectTypes } from './platform-types.js';
      export const client = new SyncClient({ baseUrl: 'http://localhost:3000', projectId: 'p1', collections: ['contacts', 'my-notes', 'loose'], store: new MemoryStore() });
      export const contacts = client.collection<Contacts>('contacts');
    `;
    const typed = `
      import { client, contacts } from './client.js';
      import type { ProjectTypes } from './platform-types.js';
      const ada = await contacts.insert({ name: 'Ada', home: { city: 'London' }, tags: ['friend'] });
      const city: string | undefined = ada.home?.city;
      await contacts.update(ada.id, { age: 36, home: undefined });
      const names: string[] = contacts.list().map((contact) => contact.name);
      const note = await client.collection<ProjectTypes['my-notes']>('my-notes').insert({ text: 'hi' });
      await client.collection<ProjectTypes['loose']>('loose').insert({ anything: [1, 2] });
      console.log(city, names, note.text);
    `;
    const wrong = `
      import { contacts } from './client.js';
      await contacts.insert({ name: 'Ada', nmae: 'typo' });
    `;
    const diagnostics = await typeCheck({ 'platform-types.ts': declarations, 'client.ts': client, 'typed.ts': typed, 'wrong.ts': wrong });
    const lines = diagnostics.split('\n').filter((line) => line.includes('error TS'));
    expect(lines, diagnostics).toHaveLength(1);
    expect(lines[0]).toMatch(/^wrong\.ts\(3,\d+\): error TS2353: .*'nmae'/);
    expect(declarations).not.toMatch(/^\s*(declare|export) const/m);
  }, 180_000);

  it('declares the named types only, and answers 404 for a type the caller may not read', async () => {
    const reader = await platform.signIn('reader');
    const named = await platform.call('GET', `${declarationsPath()}?types=contacts`, { token: reader });
    expect(named.status).toBe(200);
    expect((named.body as string)).toContain('export interface Contacts');
    expect((named.body as string)).not.toContain('MyNotes');
    const hidden = await platform.call('GET', `${declarationsPath()}?types=contacts,secret`, { token: reader });
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe('DATA_TYPE_NOT_FOUND');
    const invalid = await platform.call('GET', `${declarationsPath()}?types=bad%20id`, { token: reader });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toContain('types');
  });
});

describe('GET .../types.d.ts past DATA_TYPE_DECLARATIONS_MAX_TYPES', () => {
  it('refuses to declare more types than the limit, naming it, and declares as many when they are named', async () => {
    process.env.DATA_TYPE_DECLARATIONS_MAX_TYPES = '2';
    const limited = await startTestGateway({ services: [dataService] }).finally(() => delete process.env.DATA_TYPE_DECLARATIONS_MAX_TYPES);
    try {
      const owner = await limited.signIn('owner');
      const project = await limited.seedProject({ ownerId: 'owner' });
      for (const id of ['a', 'b', 'c']) expect((await limited.call('POST', `/api/projects/${project}/types`, { token: owner, body: { id, name: id } })).status).toBe(201);
      const all = await limited.call('GET', `/api/projects/${project}/types.d.ts`, { token: owner });
      expect(all.status).toBe(400);
      expect(all.body).toMatchObject({ code: 'DATA_TOO_MANY_TYPES_TO_DECLARE', details: { limit: 2 } });
      const named = await limited.call('GET', `/api/projects/${project}/types.d.ts?types=a,c`, { token: owner });
      expect(named.status).toBe(200);
      expect(named.body).toContain('export interface C');
    } finally {
      await limited.close();
    }
  });
});

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createLogger } from '@platform/kit';
import { describeWithBackends } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPlatformConfig } from '../config';
import { startPlatform } from '../host';
import { startLocalTopology } from '../compose/local-topology';
import { promoteOwnerCommand } from '../compose/owner-command';
import { accessRuleCases, READER_PERMISSION, userRoles, type UserRole } from './access-oracle';
import { formatMatrix, judge, problemsIn } from './leak-matrix';
import { httpCaller, openSyncStream, type SyncStream } from '../testing/platform-http';
import { probeReadPaths, secretTitle, type RuleEntities } from './read-paths';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** A platform in one shape, and how its operator makes an account platform owner. */
interface MatrixPlatform {
  url: string;
  promotePlatformOwner(email: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The matrix in one shape: `start` brings the platform up on fresh storage; everything the suite
 * writes and reads goes through its front door.
 */
function matrixSuite(start: () => Promise<MatrixPlatform>): void {
  let platform: MatrixPlatform | undefined;
  /** Session token per role; the anonymous caller has none. */
  const tokens = new Map<UserRole, string | undefined>();
  let projectId: string;
  let actionId: string;
  const entities: RuleEntities[] = [];
  /** Each role's realtime stream (none when it was refused). */
  const streams = new Map<UserRole, SyncStream>();
  const realtimeText = (role: UserRole) => streams.get(role)?.text() ?? '';

  const call = httpCaller(() => platform?.url ?? '');

  async function asOwner(method: string, path: string, body?: unknown): Promise<any> {
    const answer = await call(method, path, tokens.get('owner'), body);
    if (answer.status >= 300) throw new Error(`setup: ${method} ${path} answered ${answer.status} ${answer.text}`);
    return answer.body;
  }

  async function register(name: string): Promise<{ token: string; userId: string; email: string }> {
    const email = `${name.replace(/\W/g, '-')}-${Date.now()}@example.org`;
    const answer = await call('POST', '/api/auth/register', undefined, { email, password: 'rls matrix password', displayName: name });
    expect(answer.status).toBe(201);
    return { token: answer.body.token, userId: answer.body.user.id, email };
  }

  /** Every id in `ids` appears in what `read` answers (the owner's view, which must see everything). */
  async function eventually(read: () => Promise<string>, ids: string[]): Promise<void> {
    await vi.waitFor(
      async () => {
        const text = await read();
        expect(ids.filter((id) => !text.includes(`"${id}"`))).toEqual([]);
      },
      { timeout: 20_000, interval: 100 },
    );
  }

  /**
   * One more run of the open action, on a document every member reads, whose blocks touch each
   * rule's document: an update-database names it (a write that changes nothing) and feeds its
   * output to a mail whose subject is the document's title. Block results must show a document's
   * id or title only to its readers, inside a run the reader may see.
   */
  async function runBlocksTouchingEveryRuleDocument(project: string): Promise<void> {
    await asOwner('PUT', `${project}/actions/${actionId}`, {
      title: 'Runs on every new document and touches each rule document',
      triggers: [{ id: 'created', triggerName: 'documentCreated' }],
      blocks: entities.flatMap((rule) => [
        { id: `touch_${rule.ruleKey}`, blockName: 'update-database', configuration: { typeId: rule.typeId, documentId: rule.documentId, modifier: { $set: { title: secretTitle(rule.documentId) } } } },
        { id: `mail_${rule.ruleKey}`, blockName: 'send-mail', configuration: { to: 'rls-matrix@example.org', subject: 'About {{inputs.data.title}}' } },
      ]),
      connections: entities.map((rule) => ({ sourceBlockId: `touch_${rule.ruleKey}`, sourceSocketName: 'document', targetBlockId: `mail_${rule.ruleKey}`, targetSocketName: 'data' })),
    });
    await asOwner('POST', `${project}/types`, { id: 't_blocks', name: 'open trigger of the block run' });
    await asOwner('POST', `${project}/types/t_blocks/data`, { id: 'blocks_trigger' });
    const titles = entities.map((rule) => secretTitle(rule.documentId));
    await vi.waitFor(
      async () => {
        const text = (await call('GET', `${project}/actions/${actionId}/runs?pageSize=200`, tokens.get('owner'))).text;
        expect(titles.filter((title) => !text.includes(`About ${title}`))).toEqual([]);
      },
      { timeout: 20_000, interval: 100 },
    );
  }

  beforeAll(async () => {
    platform = await start();

    const users = new Map<UserRole, { token: string; userId: string; email: string }>();
    // The platform owner registers first: the development promotion works only while one account exists.
    const platformOwner = await register('platform owner');
    await platform.promotePlatformOwner(platformOwner.email);
    users.set('platform owner', platformOwner);
    for (const role of userRoles) if (role !== 'anonymous' && role !== 'platform owner') users.set(role, await register(role));
    for (const role of userRoles) tokens.set(role, users.get(role)?.token);
    // Its session is a platform owner's (the admin lists answer it), though it never joins the project.
    expect((await call('GET', '/api/admin/projects', tokens.get('platform owner'))).status).toBe(200);

    // Only the owners' standing (the project's and the platform owner's) passes the project's update rule, so only they administer RLS.
    projectId = (await asOwner('POST', '/api/projects', { name: 'RLS matrix', access: { update: { permission: 'manage' } } })).id;
    const project = `/api/projects/${projectId}`;
    // Adding a member invites it; it joins by accepting.
    const joining = [['member with permission', [READER_PERMISSION]], ['member without permission', []], ['listed user', []], ['removed member', [READER_PERMISSION]]] as const;
    for (const [role, permissions] of joining) {
      const invitation = await asOwner('POST', `${project}/members`, { userId: users.get(role)?.userId, permissions });
      expect((await call('POST', `/api/me/invitations/${invitation.id}/accept`, users.get(role)?.token)).status).toBe(200);
    }

    for (const role of userRoles) {
      const stream = await openSyncStream(platform.url, tokens.get(role), projectId);
      if (stream) streams.set(role, stream);
    }
    // Removed with its stream still open: from the removal's answer on, it must learn nothing more.
    expect((await call('DELETE', `${project}/members/${users.get('removed member')?.userId}`, tokens.get('owner'))).status).toBe(204);
    // Readable by every member and run as the owner, so its runs cover every document it is triggered by.
    actionId = (await asOwner('POST', `${project}/actions`, { title: 'Runs on every new document', triggers: [{ id: 'created', triggerName: 'documentCreated' }], blocks: [] })).id;

    const listedUserId = users.get('listed user')?.userId as string;
    for (const rule of accessRuleCases) {
      const typeId = `t_${rule.key}`;
      const access = rule.access({ projectId, listedUserId });
      const documentAccess = rule.on === 'entity' ? access : undefined;
      const typeRule = rule.on === 'type' ? { access } : rule.on === 'defaultAccess' ? { defaultAccess: access } : {};
      await asOwner('POST', `${project}/types`, { id: typeId, name: rule.label, ...typeRule });
      // Before the documents, so it runs on both of them.
      const ruleAction = await asOwner('POST', `${project}/actions`, {
        title: `Runs on the documents of ${typeId}`,
        triggers: [{ id: 'created', triggerName: 'documentCreated', configuration: { typeId } }],
        blocks: [],
        ...(access ? { access } : {}),
      });
      const written: RuleEntities = {
        ruleKey: rule.key,
        typeId,
        documentId: `doc_${rule.key}`,
        applicationId: `app_${rule.key}`,
        deletedDocumentId: `del_${rule.key}`,
        actionId: ruleAction.id,
      };
      await asOwner('POST', `${project}/types/${written.typeId}/data`, { id: written.documentId, title: secretTitle(written.documentId), ...(documentAccess ? { access: documentAccess } : {}) });
      // Written open and deleted, then restricted: a deleted document's access still decides who reads what it keeps.
      const deletedPath = `${project}/types/${written.typeId}/data/${written.deletedDocumentId}`;
      await asOwner('POST', `${project}/types/${written.typeId}/data`, { id: written.deletedDocumentId, title: secretTitle(written.deletedDocumentId) });
      await asOwner('DELETE', deletedPath);
      if (documentAccess) await asOwner('PATCH', deletedPath, { modifier: { $set: { access: documentAccess } }, baseRevision: 1 });
      await asOwner('POST', `${project}/applications`, { id: written.applicationId, title: { en: secretTitle(written.applicationId) }, routes: [], ...(access ? { access } : {}) });
      await asOwner('POST', `${project}/applications/${written.applicationId}/publish`);
      entities.push(written);
    }

    // Audit items, action runs and notifications arrive asynchronously: wait until the owner has them all.
    const everyId = entities.flatMap((rule) => [rule.documentId, rule.applicationId]);
    await eventually(async () => (await call('GET', `${project}/audit-trail?limit=200`, tokens.get('owner'))).text, everyId);
    // The access change of a deleted document moves its earlier audit items first, then appears itself.
    await vi.waitFor(
      async () => {
        const trail = (await call('GET', `${project}/audit-trail?limit=200`, tokens.get('owner'))).body as { items: Array<{ entityId: string; changeDescription: string }> };
        const restricted = new Set(trail.items.filter((item) => item.changeDescription === 'audit.accessChanged').map((item) => item.entityId));
        const restrictedAfterDeletion = accessRuleCases.filter((rule) => rule.on === 'entity' && rule.key !== 'members').map((rule) => `del_${rule.key}`);
        expect(restrictedAfterDeletion.filter((id) => !restricted.has(id))).toEqual([]);
      },
      { timeout: 20_000, interval: 100 },
    );
    await eventually(async () => (await call('GET', `${project}/actions/${actionId}/runs?pageSize=200`, tokens.get('owner'))).text, entities.flatMap((rule) => [rule.documentId, rule.deletedDocumentId]));
    for (const rule of entities) await eventually(async () => (await call('GET', `${project}/actions/${rule.actionId}/runs`, tokens.get('owner'))).text, [rule.documentId, rule.deletedDocumentId]);
    await runBlocksTouchingEveryRuleDocument(project);
    await eventually(async () => realtimeText('owner'), everyId);
    // A notification goes to every subscriber in the same delivery; give the others a moment to get it too.
    await new Promise((resolve) => setTimeout(resolve, 500));
  }, 120_000);

  afterAll(async () => {
    for (const stream of streams.values()) stream.close();
    await platform?.close();
  });

  describe('RLS leak matrix', () => {
    it('every read path shows each caller exactly the entities its access rule lets it read', async () => {
      const rows = [];
      for (const role of userRoles) {
        const revealed = await probeReadPaths(call, tokens.get(role), { projectId, actionId, entities, realtimeText: realtimeText(role) });
        for (const rule of accessRuleCases) rows.push(judge(role, rule, entities.find((written) => written.ruleKey === rule.key) as RuleEntities, revealed));
      }
      console.log(`RLS leak matrix (✓ visible, · hidden, ✗ LEAK shown though unreadable, ✗ MISSING readable but not shown)\n${formatMatrix(rows)}`);

      expect(rows).toHaveLength(userRoles.length * accessRuleCases.length);
      expect(problemsIn(rows)).toEqual([]);
    }, 60_000);

    // The matrix's pull columns show the tombstones reach their readers; here, that they carry nothing more.
    it('tombstones carry no content in any pull, and lists never show deleted documents, even to the owner', async () => {
      const shown: string[] = [];
      for (const role of userRoles) {
        for (const rule of entities) {
          for (const query of ['?updatedAt=0', '?updatedAt=0&includeChanges=true', '']) {
            const answer = await call('GET', `/api/projects/${projectId}/types/${rule.typeId}/data${query}`, tokens.get(role));
            if (answer.text.includes(secretTitle(rule.deletedDocumentId)) || (query === '' && answer.text.includes(`"${rule.deletedDocumentId}"`))) shown.push(`${role} × ${rule.ruleKey} × ${query || 'list'}`);
          }
        }
      }
      expect(shown).toEqual([]);
    });
  });
}

describe('all-in-one', () => {
  matrixSuite(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'rls-matrix-'));
    // The development promotion path is logged at the first registration; only that line is kept.
    const promotionPaths: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void (line.includes('promotionPath') && promotionPaths.push(JSON.parse(line).promotionPath)) } });
    const platform = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir }), { logger });
    return {
      url: platform.url,
      async promotePlatformOwner() {
        expect((await fetch(`${platform.url}${promotionPaths[0]}`)).status).toBe(200);
      },
      async close() {
        await platform.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  });
});

describeWithBackends(['mongo', 'nats', 'redis'], 'microservices', (urls) => {
  matrixSuite(async () => {
    const mongoDatabase = `rls_${randomBytes(4).toString('hex')}`;
    const topology = await startLocalTopology({ backendUrls: urls, extraEnvironment: { LOG_LEVEL: 'warn', MONGO_DATABASE: mongoDatabase } });
    return {
      url: topology.gatewayUrl,
      // As an operator does in production: the promote-owner command on the shape's backends.
      async promotePlatformOwner(email) {
        const command = promoteOwnerCommand({ mongoUrl: urls.mongo, mongoDatabase, redisUrl: urls.redis, redisKeyPrefix: topology.redisKeyPrefix }).replace('<email>', email);
        const { stdout } = await promisify(execFile)('sh', ['-c', command], { cwd: repositoryRoot, env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeout: 120_000 });
        expect(stdout).toContain(`${email} (`);
      },
      close: () => topology.stop(),
    };
  });
});

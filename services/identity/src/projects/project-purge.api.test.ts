import { PROJECT_MEMBERS_COLLECTION, PROJECT_PURGE_FILTER, PROJECTS_COLLECTION, type ProjectPurge } from '@platform/contracts';
import { EventOutbox } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_OUTBOX_COLLECTION } from '../identity-deps';
import { EmailInvitationRepository } from '../invitations/email-invitation-repository';
import { InvitationRepository } from '../invitations/invitation-repository';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';
import { ProjectPurgeJob } from './project-purge';
import { ProjectRepository } from './project-repository';

const DAY = 24 * 60 * 60 * 1000;
let now = Date.UTC(2026, 5, 1);
let platform: IdentityTestPlatform;
let owner: { token: string; user: any };
const announced: ProjectPurge[] = [];

beforeAll(async () => {
  // The service's own schedule never comes round here: the test runs the job itself.
  platform = await startIdentityPlatform({ clock: () => now, config: { projectRestorePeriodMs: DAY, projectPurgeCheckMs: 2_000_000_000 } });
  owner = await platform.register('purging@example.org');
  await platform.context.bus.subscribe<ProjectPurge>({ durable: 'test-project-purges', filter: PROJECT_PURGE_FILTER, handler: async ({ data }) => void announced.push(data) });
});
afterAll(async () => {
  await platform?.close();
});

/** The job on the platform's store and bus, as identity's schedule runs it. */
function job(): ProjectPurgeJob {
  const { store, bus, logger } = platform.context;
  const clock = () => now;
  const repositories = { projects: new ProjectRepository(store, clock), invitations: new InvitationRepository(store, clock), emailInvitations: new EmailInvitationRepository(store, clock) };
  const outbox = new EventOutbox({ store, bus, clock, logger }, IDENTITY_OUTBOX_COLLECTION);
  return new ProjectPurgeJob({ ...repositories, outbox, bus, clock, logger, projectRestorePeriodMs: DAY });
}

async function deletedProject(name: string): Promise<string> {
  const project = await platform.call('POST', '/api/projects', { token: owner.token, body: { name } });
  expect((await platform.call('DELETE', `/api/projects/${project.body.id}`, { token: owner.token })).status).toBe(200);
  return project.body.id;
}

describe('the project purge job', () => {
  it('announces each project once its restore period has ended, erases its memberships, marks it purged, and does it once', async () => {
    const first = await deletedProject('First to go');
    now += DAY / 2;
    const second = await deletedProject('Second to go');
    const members = platform.context.store.collection(PROJECT_MEMBERS_COLLECTION);

    now += DAY / 2 - 1;
    expect(await job().run()).toEqual({ purged: 0 });
    now += 1;
    expect(await job().run()).toEqual({ purged: 1 });
    await expect.poll(() => announced.map((purge) => purge.projectId)).toEqual([first]);
    expect(announced[0]!.deletedAt).toBe(now - DAY);
    expect(await members.count({ projectId: first })).toBe(0);
    expect(await members.count({ projectId: second })).toBe(1);
    expect((await platform.context.store.collection(PROJECTS_COLLECTION).findById(first))?.purgedAt).toBe(now);

    expect(await job().run()).toEqual({ purged: 0 });
    now += DAY / 2;
    expect(await job().run()).toEqual({ purged: 1 });
    await expect.poll(() => announced.map((purge) => purge.projectId)).toEqual([first, second]);
    expect((await platform.call('POST', `/api/projects/${first}/restore`, { token: owner.token })).body.code).toBe('IDENTITY_PROJECT_RESTORE_EXPIRED');

    // The operator then lengthens the restore period: a purged project's data is gone, so it stays purged.
    const longer = await startIdentityPlatform({ clock: () => now, store: platform.context.store, kv: platform.context.kv, config: { projectRestorePeriodMs: 60 * DAY, projectPurgeCheckMs: 2_000_000_000 } });
    try {
      const refused = await longer.call('POST', `/api/projects/${first}/restore`, { token: owner.token });
      expect([refused.status, refused.body.code]).toEqual([409, 'IDENTITY_PROJECT_RESTORE_EXPIRED']);
      expect((await longer.call('GET', `/api/projects/${first}`, { token: owner.token })).status).toBe(404);
    } finally {
      await longer.close();
    }
  });

  it("drops identity's events about the project still waiting in its outbox (the bus was down): sent later, they would refill its erased trail", async () => {
    const purged = await deletedProject('Gone while the bus was down');
    const kept = (await platform.call('POST', '/api/projects', { token: owner.token, body: { name: 'Still here' } })).body.id as string;
    const waiting = platform.context.store.collection(IDENTITY_OUTBOX_COLLECTION);
    // Written in the future, so the service's own outbox sweep leaves them waiting during the test.
    const message = (projectId: string) => ({ id: `waiting-${projectId}`, subject: `platform.projects.${projectId}.settings`, msgId: `waiting-${projectId}`, data: { projectId }, writtenAt: now + 30 * DAY });
    await waiting.insertMany([message(purged), message(kept)]);
    now += DAY;
    expect(await job().run()).toEqual({ purged: 1 });
    expect((await waiting.find({ 'data.projectId': { $in: [purged, kept] } })).map((entry) => entry.data)).toEqual([{ projectId: kept }]);
  });

  it('marks a project purged only once every consumer of its announcement has handled it (the in-process bus keeps it in memory only)', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held: string[] = [];
    const slow = await deletedProject('Erased slowly');
    // A new durable is given the purges announced before too: only this project's is held.
    const erase = async ({ data }: { data: ProjectPurge }) => {
      if (data.projectId !== slow) return;
      held.push(data.projectId);
      await released;
    };
    const subscription = await platform.context.bus.subscribe<ProjectPurge>({ durable: 'test-slow-erasure', filter: PROJECT_PURGE_FILTER, handler: erase });
    try {
      now += DAY;
      const running = job().run();
      await expect.poll(() => held).toEqual([slow]);
      // A stop now would find it not purged, and announce it again at the next run.
      expect((await platform.context.store.collection(PROJECTS_COLLECTION).findById(slow))?.purgedAt).toBeUndefined();
      release();
      expect(await running).toEqual({ purged: 1 });
      expect((await platform.context.store.collection(PROJECTS_COLLECTION).findById(slow))?.purgedAt).toBe(now);
    } finally {
      release();
      await subscription.stop();
    }
  });
});

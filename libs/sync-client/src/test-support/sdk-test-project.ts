import { PROJECT_MEMBERS_COLLECTION, projectMemberId } from '@platform/contracts';
import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { SyncClient } from '../index';
import { quietClients } from '../testing';

/**
 * The setup the client's API tests share (not part of the published package): a gateway with the
 * data service, the owner signed in, one seeded project, and quiet clients closed after each test.
 * Registers the vitest hooks where it is called (a test file's top level); what it answers is read
 * through getters, so read it within tests and hooks, not at load.
 */
export function sdkTestProject(options: {
  /** Starts the id of every type freshType() creates, so that a file's ids stand apart from another's. */
  typePrefix: string;
  /** Serve the realtime sync channel (the test gateway's default, off, when absent). */
  realtime?: boolean;
  /** The project's members besides the owner. */
  members?: Array<{ userId: string; permissions?: string[] }>;
}) {
  let platform: TestGateway;
  let projectId: string;
  let owner: string;
  let typeCount = 0;
  const clients = quietClients(SyncClient, () => ({ baseUrl: platform.url, projectId }));

  beforeAll(async () => {
    platform = await startTestGateway({ services: [dataService], realtime: options.realtime });
    owner = await platform.signIn('owner');
    projectId = await platform.seedProject({ ownerId: 'owner', members: options.members });
  });

  afterEach(async () => {
    await clients.closeAll();
  });

  afterAll(async () => {
    await platform?.close();
  });

  const dataPath = (typeId: string) => `/api/projects/${projectId}/types/${typeId}/data`;

  return {
    get platform(): TestGateway {
      return platform;
    },
    get projectId(): string {
      return projectId;
    },
    /** The project owner's token. */
    get owner(): string {
      return owner;
    },
    /** How many types freshType() has created so far: tests take it to make user ids of their own. */
    get typeCount(): number {
      return typeCount;
    },
    /** A quiet client of the project on this gateway (see quietClients), closed after the test. */
    client: clients.open,
    /** Closes the clients opened so far (as after each test), for a test that closes them before its own cleanup. */
    closeClients: clients.closeAll,

    /** A new type in the project, created by the owner; `extra` goes into the type's body. */
    async freshType(extra: Record<string, unknown> = {}): Promise<string> {
      const id = `${options.typePrefix}${++typeCount}${Date.now().toString(36)}`;
      expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner, body: { id, name: id, ...extra } })).status).toBe(201);
      return id;
    },

    dataPath,

    /** A document the owner writes through the API; answers its id. */
    async ownerCreates(typeId: string, body: Record<string, unknown>): Promise<string> {
      const created = await platform.call('POST', dataPath(typeId), { token: owner, body });
      expect(created.status).toBe(201);
      return created.body.id;
    },

    /** A member without permissions, written straight to the store (nothing is announced). */
    async addMember(userId: string): Promise<void> {
      await platform.context.store.collection(PROJECT_MEMBERS_COLLECTION).insertOne({ id: projectMemberId(projectId, userId), projectId, userId, role: 'member', permissions: [], createdAt: Date.now() });
    },
  };
}

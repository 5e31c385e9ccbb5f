import type { BusMessage } from '@platform/bus';
import type { DocumentEvent } from '@platform/contracts';
import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import type { TrustProxy } from '@platform/kit';
import type { DocumentStore } from '@platform/storage';
import { expect } from 'vitest';
import { createVisitorsService } from '../app';
import type { VisitorsConfig } from '../config';

export const DAY = 24 * 60 * 60 * 1000;

/** Limits out of the way unless a test sets them: the public data cap above the data service's own limits, so those are reached. */
export const testConfig = (overrides: Partial<VisitorsConfig['rateLimit']> = {}, publicWrites: Partial<VisitorsConfig['publicWrites']> = {}): VisitorsConfig => ({
  retentionCron: '0 3 * * *',
  retentionTimezone: 'UTC',
  rateLimit: { perIp: 10_000, perKiosk: 10_000, reservedPerIp: 10_000, windowMs: 60_000, ...overrides },
  publicWrites: { maxDataBytes: 64 * 1024 * 1024, perKioskPerDay: 10_000, ...publicWrites },
});

export interface CheckInPlatform {
  platform: TestGateway;
  time: { now: number };
  events: Array<BusMessage<DocumentEvent>>;
  ownerToken: string;
  /** A project with visitor types bound by a CheckIn widget; answers its id and collection names. */
  seedCheckIn(options?: { deletionPeriods?: unknown[]; visitorSchema?: unknown; visitorDefaultAccess?: (projectId: string) => unknown; members?: Array<{ userId: string; permissions?: string[] }> }): Promise<{
    projectId: string;
    visitors: string;
    visitorEvents: string;
    contacts: string;
  }>;
}

/** The gateway with the data and visitors services on an injected clock that tests move. */
export async function startCheckInPlatform(config: VisitorsConfig = testConfig(), options: { trustProxy?: TrustProxy; store?: DocumentStore } = {}): Promise<CheckInPlatform> {
  const time = { now: Date.UTC(2024, 4, 1, 12, 0, 0) };
  const platform = await startTestGateway({ services: [dataService, createVisitorsService(config)], clock: () => time.now, ...options });
  const events: Array<BusMessage<DocumentEvent>> = [];
  await platform.context.bus.subscribe<DocumentEvent>({ durable: `visitors-test-${Math.random()}`, filter: 'platform.docs.>', handler: async (message) => void events.push(message) });
  const ownerToken = await platform.signIn('owner');

  async function create(projectId: string, path: string, body: Record<string, unknown>) {
    const response = await platform.call('POST', `/api/projects/${projectId}${path}`, { token: ownerToken, body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  }

  return {
    platform,
    time,
    events,
    ownerToken,
    async seedCheckIn(options = {}) {
      const projectId = await platform.seedProject({ ownerId: 'owner', members: options.members ?? [] });
      await create(projectId, '/types', { id: 'guests', name: 'Guests', ...(options.visitorSchema ? { schema: options.visitorSchema } : {}), ...(options.visitorDefaultAccess ? { defaultAccess: options.visitorDefaultAccess(projectId) } : {}) });
      await create(projectId, '/types', { id: 'guest-events', name: 'Guest events' });
      await create(projectId, '/types', { id: 'contacts', name: 'Contacts' });
      const checkIn = { visitorTypeId: 'guests', visitorEventTypeId: 'guest-events', contactsTypeId: 'contacts', ...(options.deletionPeriods ? { deletionPeriods: options.deletionPeriods } : {}) };
      await create(projectId, '/applications', {
        id: 'kiosk',
        title: { en: 'Kiosk' },
        routes: [{ path: '/', widgetTree: { rootWidgetId: 'root', widgets: { root: { id: 'root', name: 'CheckIn', data: checkIn } } } }],
      });
      return { projectId, visitors: `tenant-${projectId}-guests`, visitorEvents: `tenant-${projectId}-guest-events`, contacts: `tenant-${projectId}-contacts` };
    },
  };
}

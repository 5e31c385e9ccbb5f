import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCheckInPlatform, type CheckInPlatform } from '../testing/visitors-test-platform';

let env: CheckInPlatform;
beforeAll(async () => {
  env = await startCheckInPlatform();
});
afterAll(async () => {
  await env?.platform.close();
});

const periods = [
  { duration: 86_400_000, label: { en: '1 day', de: '1 Tag' } },
  { duration: 604_800_000, label: { en: '7 days', de: '7 Tage' }, isDefault: true },
];

describe('GET /api/projects/{p}/visitors/kiosks/{applicationId}', () => {
  it('answers a public caller the CheckIn configuration with its defaults and the collection names, nothing else of the application', async () => {
    const { projectId, visitors, visitorEvents } = await env.seedCheckIn({ deletionPeriods: periods });
    const response = await env.platform.call('GET', `/api/projects/${projectId}/visitors/kiosks/kiosk`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({
      applicationId: 'kiosk',
      widgetId: 'root',
      visitorCollectionName: visitors,
      eventCollectionName: visitorEvents,
      configuration: { scannerEnabled: false, deletionPeriods: [{ ...periods[0], isDefault: false }, periods[1]] },
    });
    expect(JSON.stringify(response.body)).not.toContain('contacts');
  });

  it('fills in the default deletion period when the widget configures none', async () => {
    const { projectId } = await env.seedCheckIn();
    const response = await env.platform.call('GET', `/api/projects/${projectId}/visitors/kiosks/kiosk`);
    expect(response.body.configuration.deletionPeriods).toEqual([{ duration: 2_419_200_000, label: { en: '28 days', de: '28 Tage' }, isDefault: true }]);
  });

  it('answers 404 for an application without a CheckIn widget, a deleted one, an unknown one and an unknown project', async () => {
    const { projectId } = await env.seedCheckIn();
    const plain = await env.platform.call('POST', `/api/projects/${projectId}/applications`, { token: env.ownerToken, body: { id: 'plain', title: { en: 'Plain' }, routes: [] } });
    expect(plain.status).toBe(201);
    expect((await env.platform.call('DELETE', `/api/projects/${projectId}/applications/kiosk`, { token: env.ownerToken })).status).toBe(200);
    for (const path of [`/api/projects/${projectId}/visitors/kiosks/plain`, `/api/projects/${projectId}/visitors/kiosks/kiosk`, `/api/projects/${projectId}/visitors/kiosks/nothing`]) {
      const response = await env.platform.call('GET', path);
      expect(response.status, path).toBe(404);
      expect(response.body.code).toBe('VISITORS_KIOSK_NOT_FOUND');
    }
    expect((await env.platform.call('GET', '/api/projects/no-such-project/visitors/kiosks/kiosk')).body.code).toBe('PROJECT_NOT_FOUND');
  });

  it('refuses a malformed application id with 400 naming it', async () => {
    const { projectId } = await env.seedCheckIn();
    const response = await env.platform.call('GET', `/api/projects/${projectId}/visitors/kiosks/${encodeURIComponent('not an id')}`);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain('applicationId');
  });
});

import type { EventBus } from '@platform/bus';
import type { DocumentStore } from '@platform/storage';
import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { pino } from 'pino';
import { expect } from 'vitest';
import { createActionsService } from '../app';
import type { ActionsConfig } from '../config';

export const WEBHOOK_SECRET = 'test-webhook-secret-0123456789';

export interface ActionsTestPlatform extends TestGateway {
  /** Every line the services logged, parsed (mails are written there). */
  logs: Array<Record<string, unknown>>;
  /** Mails sent to `to` so far. */
  mailsTo(to: string): Array<{ to: string; subject: string; text: string }>;
  /** A project owned by `owner` with a type `typeId`; answers the project id. */
  projectWithType(owner: string, typeId: string, members?: Array<{ userId: string; permissions?: string[] }>): Promise<string>;
  createAction(projectId: string, token: string, body: Record<string, unknown>): Promise<any>;
  /** Polls the runs of an action until `count` are finished; answers them oldest first. */
  runsOf(projectId: string, actionId: string, token: string, count: number): Promise<any[]>;
}

/**
 * Data and actions behind the gateway, the log captured. Webhooks may reach loopback here (the
 * tests' receivers listen on 127.0.0.1); production refuses it unless configured.
 */
export async function startActionsPlatform(config: Partial<ActionsConfig> = {}, options: { clock?: () => number; bus?: EventBus; store?: DocumentStore } = {}): Promise<ActionsTestPlatform> {
  const logs: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  const actions = createActionsService({ webhookAllowedNetworks: ['127.0.0.0/8', '::1/128'], webhookSecret: WEBHOOK_SECRET, executorConcurrency: 2, webhookRetryDelayMs: 10, ...config });
  const platform = await startTestGateway({ services: [dataService, actions], logger, ...options });
  return Object.assign(platform, {
    logs,
    mailsTo(to: string) {
      return logs.map((line) => line.mail as { to: string; subject: string; text: string } | undefined).filter((mail) => mail?.to === to) as Array<{ to: string; subject: string; text: string }>;
    },
    async projectWithType(owner: string, typeId: string, members: Array<{ userId: string; permissions?: string[] }> = []) {
      const projectId = await platform.seedProject({ ownerId: owner, members });
      const token = await platform.signIn(owner);
      const type = await platform.call('POST', `/api/projects/${projectId}/types`, { token, body: { id: typeId, name: typeId } });
      expect(type.status).toBe(201);
      return projectId;
    },
    async createAction(projectId: string, token: string, body: Record<string, unknown>) {
      const response = await platform.call('POST', `/api/projects/${projectId}/actions`, { token, body });
      expect(response.body).toMatchObject({ title: body.title });
      expect(response.status).toBe(201);
      return response.body;
    },
    async runsOf(projectId: string, actionId: string, token: string, count: number) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const response = await platform.call('GET', `/api/projects/${projectId}/actions/${actionId}/runs?pageSize=200`, { token });
        expect(response.status).toBe(200);
        const finished = (response.body.items as Array<{ status: string }>).filter((run) => run.status !== 'running');
        if (finished.length >= count || Date.now() > deadline) return finished.reverse();
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  });
}

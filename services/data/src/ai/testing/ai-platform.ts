import { randomBytes } from 'node:crypto';
import { PROJECTS_COLLECTION, sessionKey, type Access, type SessionRecord } from '@platform/contracts';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { hashToken } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import { dataService } from '../../app';
import { startFakeChatCompletions, type FakeChatCompletions } from './fake-chat-completions';

export interface AiPlatform {
  platform: TestGateway;
  /** Absent when started without a provider. */
  fake?: FakeChatCompletions;
  /** A session whose user has the given profile language, as identity would write it. */
  signIn(userId: string, language?: string): Promise<string>;
  /** A fresh project owned by `ownerId`, with AI on or off. */
  project(options: { ownerId: string; aiEnabled: boolean; access?: Access; members?: Array<{ userId: string; permissions?: string[] }> }): Promise<string>;
  close(): Promise<void>;
}

const AI_ENV = ['AI_BASE_URL', 'AI_MODEL', 'AI_API_KEY', 'AI_TIMEOUT_MS', 'AI_CALLS_PER_USER_PER_HOUR', 'AI_CALLS_PER_PROJECT_PER_HOUR'] as const;

/**
 * The data service behind the test gateway, configured through the environment exactly as in
 * production, with a fake chat-completions server on loopback (or with no provider at all;
 * `baseUrl` points the service elsewhere, e.g. at a port nothing listens on). `env` sets further AI_*
 * variables (the call budgets).
 */
export async function startAiPlatform(options: { provider: boolean; timeoutMs?: number; baseUrl?: string; env?: Partial<Record<(typeof AI_ENV)[number], string>>; kv?: KeyValue }): Promise<AiPlatform> {
  const saved = Object.fromEntries(AI_ENV.map((name) => [name, process.env[name]]));
  const fake = options.provider ? await startFakeChatCompletions() : undefined;
  for (const name of AI_ENV) delete process.env[name];
  if (fake) {
    process.env.AI_BASE_URL = options.baseUrl ?? fake.baseUrl;
    process.env.AI_MODEL = 'fake-model';
    process.env.AI_API_KEY = 'test-key';
    process.env.AI_TIMEOUT_MS = String(options.timeoutMs ?? 2_000);
    Object.assign(process.env, options.env);
  }
  let platform: TestGateway;
  try {
    platform = await startTestGateway({ services: [dataService], ...(options.kv ? { kv: options.kv } : {}) });
  } finally {
    for (const name of AI_ENV) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  }
  return {
    platform,
    fake,
    async signIn(userId, language) {
      const token = randomBytes(32).toString('base64url');
      const now = Date.now();
      const session: SessionRecord = { id: randomBytes(8).toString('hex'), userId, createdAt: now, expiresAt: now + 3_600_000, platformOwner: false, ...(language ? { language } : {}) };
      await platform.context.kv.set(sessionKey(hashToken(token)), JSON.stringify(session));
      return token;
    },
    async project({ aiEnabled, ...project }) {
      const id = await platform.seedProject(project);
      if (aiEnabled) await platform.context.store.collection(PROJECTS_COLLECTION).updateOne({ id }, { $set: { aiEnabled: true } });
      return id;
    },
    async close() {
      await platform.close();
      await fake?.close();
    },
  };
}

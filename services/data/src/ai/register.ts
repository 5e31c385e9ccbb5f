import type { FastifyInstance } from 'fastify';
import type { DataDeps } from '@platform/documents';
import type { KeyValue } from '@platform/kv';
import { renderAiErrors } from './ai-errors';
import { aiConfigFromEnv } from './config';
import { AiGate } from './gate';
import { helpDocuments } from './help-documents';
import { OpenAiCompatibleProvider } from './provider/openai-compatible';
import { registerAgentRoutes } from './routes/agents';
import { registerExtractRoute } from './routes/extract';
import { registerHelpRoute } from './routes/help';
import { registerAiUsageRoute } from './routes/usage';
import { AiUsageLimits } from './usage-limits';

/**
 * The AI features, in their own scope of the data service: agents (CRUD and chat), extraction into
 * a type, and the help chat. The provider comes from AI_BASE_URL, AI_MODEL and AI_API_KEY; the
 * hourly budgets of its calls are counted in `kv`, shared by the data replicas.
 */
export async function registerAiRoutes(app: FastifyInstance, deps: DataDeps, kv: KeyValue): Promise<void> {
  const config = aiConfigFromEnv();
  const provider = config
    ? { chat: new OpenAiCompatibleProvider(config, deps.logger), limits: new AiUsageLimits(kv, deps.clock, { perUser: config.callsPerUserPerHour, perProject: config.callsPerProjectPerHour }) }
    : undefined;
  const gate = new AiGate(deps, provider);
  await app.register(async (scope) => {
    renderAiErrors(scope);
    registerAgentRoutes(scope, deps, gate);
    registerExtractRoute(scope, deps, gate);
    registerHelpRoute(scope, gate, helpDocuments(scope));
    registerAiUsageRoute(scope, deps.projects, provider?.limits);
  });
}

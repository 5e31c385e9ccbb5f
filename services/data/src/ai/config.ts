import { parseEnv } from '@platform/kit';
import { z } from 'zod';

/** Where the AI provider is, from the environment. No key or model is built in. */
export interface AiConfig {
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer`; local servers (Ollama, llama.cpp) need none. */
  apiKey?: string;
  timeoutMs: number;
  /** Provider calls one user may cause per hour, across projects and the help chat. */
  callsPerUserPerHour: number;
  /** Provider calls one project's members may cause per hour together. */
  callsPerProjectPerHour: number;
}

const envSchema = z
  .object({
    AI_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    AI_API_KEY: z.string().optional(),
    AI_MODEL: z.string().optional(),
    AI_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
    AI_CALLS_PER_USER_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(100),
    AI_CALLS_PER_PROJECT_PER_HOUR: z.coerce.number().int().min(1).max(10_000_000).default(1_000),
  })
  .refine((env) => !env.AI_BASE_URL || env.AI_MODEL, { path: ['AI_MODEL'], message: 'required when AI_BASE_URL is set' });

/**
 * The provider configuration, or undefined when AI_BASE_URL is unset (AI endpoints then answer
 * 501). A half-configured provider (a URL without a model, a malformed URL) stops start-up.
 */
export function aiConfigFromEnv(env: NodeJS.ProcessEnv = process.env): AiConfig | undefined {
  const parsed = parseEnv(envSchema, env);
  if (!parsed.AI_BASE_URL || !parsed.AI_MODEL) return undefined;
  return {
    baseUrl: parsed.AI_BASE_URL.replace(/\/+$/, ''),
    model: parsed.AI_MODEL,
    ...(parsed.AI_API_KEY ? { apiKey: parsed.AI_API_KEY } : {}),
    timeoutMs: parsed.AI_TIMEOUT_MS,
    callsPerUserPerHour: parsed.AI_CALLS_PER_USER_PER_HOUR,
    callsPerProjectPerHour: parsed.AI_CALLS_PER_PROJECT_PER_HOUR,
  };
}

import type { Logger } from '@platform/kit';
import { z } from 'zod';
import type { AiConfig } from '../config';
import { ProviderFailure, type ChatCompletion, type ChatProvider, type ChatRequest } from './port';

const answerSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional() }) })).min(1),
  usage: z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional(), total_tokens: z.number().optional() }).optional(),
});

/**
 * The chat-completions protocol (`POST {baseUrl}/chat/completions`) that OpenAI, Azure OpenAI,
 * Ollama, vLLM, llama.cpp and most gateways speak, over Node's fetch. Every failure becomes a
 * ProviderFailure; the provider's own error text goes to the log, never to the caller.
 */
export class OpenAiCompatibleProvider implements ChatProvider {
  constructor(
    /** Where the provider is; the call budgets are the gate's. */
    private readonly config: Pick<AiConfig, 'baseUrl' | 'model' | 'apiKey' | 'timeoutMs'>,
    private readonly logger: Logger,
  ) {}

  async complete(request: ChatRequest): Promise<ChatCompletion> {
    const body = {
      model: request.model ?? this.config.model,
      messages: request.messages,
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
      ...(request.jsonSchema ? { response_format: { type: 'json_schema', json_schema: { name: request.jsonSchema.name, schema: request.jsonSchema.schema } } } : {}),
    };
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;

    // One deadline for connecting, waiting and reading the answer.
    const signal = AbortSignal.timeout(this.config.timeoutMs);
    let status: number;
    let text: string;
    try {
      const response = await fetch(`${this.config.baseUrl}/chat/completions`, { method: 'POST', headers, body: JSON.stringify(body), signal });
      status = response.status;
      text = await response.text();
    } catch (error) {
      if (signal.aborted) throw new ProviderFailure('timeout', `The AI provider did not answer within ${this.config.timeoutMs} ms`);
      this.logger.warn({ err: error }, 'AI provider unreachable');
      throw new ProviderFailure('unreachable', 'The AI provider could not be reached');
    }

    if (status < 200 || status >= 300) {
      this.logger.warn({ status, answer: text.slice(0, 2_000) }, 'AI provider refused a request');
      throw new ProviderFailure('rejected', `The AI provider answered HTTP ${status}`, status);
    }
    let parsed: z.infer<typeof answerSchema>;
    try {
      parsed = answerSchema.parse(JSON.parse(text));
    } catch {
      this.logger.warn({ answer: text.slice(0, 2_000) }, 'AI provider answer is not a chat completion');
      throw new ProviderFailure('malformed-answer', 'The AI provider answered with something that is not a chat completion');
    }
    const choice = parsed.choices[0] as (typeof parsed.choices)[number];
    const promptTokens = parsed.usage?.prompt_tokens ?? 0;
    const completionTokens = parsed.usage?.completion_tokens ?? 0;
    return {
      message: { role: 'assistant', content: choice.message.content ?? '' },
      usage: { promptTokens, completionTokens, totalTokens: parsed.usage?.total_tokens ?? promptTokens + completionTokens },
    };
  }
}

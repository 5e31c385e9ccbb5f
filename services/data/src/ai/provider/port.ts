/** One message of a conversation, in the chat-completions roles. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** Overrides the server's configured model. */
  model?: string;
  temperature?: number;
  maxTokens?: number;
  /** Ask for a JSON object following this JSON Schema (structured output). */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
}

export interface ChatCompletion {
  message: { role: 'assistant'; content: string };
  usage: ChatUsage;
}

/** How a provider call failed; the routes map these to 502 and 504. */
export type ProviderFailureKind = 'unreachable' | 'timeout' | 'rejected' | 'malformed-answer';

export class ProviderFailure extends Error {
  constructor(
    readonly kind: ProviderFailureKind,
    message: string,
    /** The provider's HTTP status, when it answered. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderFailure';
  }
}

/** A chat model behind some API; the only way AI routes reach a model. */
export interface ChatProvider {
  complete(request: ChatRequest): Promise<ChatCompletion>;
}

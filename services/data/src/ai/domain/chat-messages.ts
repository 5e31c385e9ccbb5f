import { z } from 'zod';

/**
 * The conversation a client sends: user and assistant turns only. The system message is the
 * server's (agent instructions, help context), so a client cannot replace it.
 */
export const conversationSchema = z
  .array(z.object({ role: z.enum(['user', 'assistant']), content: z.string().min(1).max(32_000) }).strict())
  .min(1)
  .max(100)
  .refine((messages) => messages[messages.length - 1]?.role === 'user', 'the last message must be the user\'s');

export const chatAnswerSchema = z.object({
  message: z.object({ role: z.literal('assistant'), content: z.string() }),
  usage: z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() }),
});

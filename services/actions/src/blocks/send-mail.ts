import { z } from 'zod';
import { MAX_PLACEHOLDERS, placeholderCount, renderTemplate } from '../domain/templates';
import { BlockError, eventData, settings, type BlockDefinition } from './block';
import { TemplateBudget } from './template-budget';

const configuration = z.strictObject({
  to: z.string().min(1).max(320).optional(),
  subject: z.string().max(500).optional(),
  text: z
    .string()
    .max(50_000)
    .refine((text) => placeholderCount(text) <= MAX_PLACEHOLDERS, `may hold at most ${MAX_PLACEHOLDERS} placeholders`)
    .optional(),
});

const email = z.email();

/**
 * Sends one mail through the mailer port (written to the log in development and tests, spec
 * Events 5). `to`, `subject` and `text` may hold `{{ path }}` placeholders filled from
 * `{ triggerName, data, inputs }`.
 */
export const sendMailBlock: BlockDefinition<z.infer<typeof configuration>> = {
  name: 'send-mail',
  description: 'Sends an email. Placeholders like {{data.document.title}} are filled from the trigger and the inputs.',
  sockets: [
    { name: 'to', type: 'string', direction: 'IN', description: 'Recipient address; overrides the configured one' },
    { name: 'subject', type: 'string', direction: 'IN' },
    { name: 'text', type: 'string', direction: 'IN' },
    { name: 'data', type: 'object', direction: 'IN', description: 'Extra values for placeholders, as {{inputs.data...}}' },
    { name: 'sent', type: 'boolean', direction: 'OUT' },
  ],
  configuration,
  requiredInputs: ['to'],
  async run(config, context) {
    const merged = settings(config, context.inputs);
    const templateData = { triggerName: context.triggerName, data: eventData(context), inputs: context.inputs };
    // One budget for the whole mail: its three settings together must not pass it.
    const budget = new TemplateBudget();
    const to = renderTemplate(String(merged.to ?? ''), templateData, budget).trim();
    if (!email.safeParse(to).success) throw new BlockError('ACTIONS_MAIL_INVALID_RECIPIENT', `"${to}" is not an email address`);
    const subject = renderTemplate(String(merged.subject ?? ''), templateData, budget);
    await context.services.mailer.send({ to, subject, text: renderTemplate(String(merged.text ?? ''), templateData, budget) }, { traceContext: context.traceContext });
    return { outputs: { sent: true }, summary: { to, subject } };
  },
};

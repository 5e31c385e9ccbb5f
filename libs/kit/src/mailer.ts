import { traceLogFields, type TraceContext } from '@platform/telemetry';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Where a mail is sent from: the trace of the request or action run that sends it. */
export interface MailOptions {
  traceContext?: TraceContext;
}

/** The mailer port: identity's welcome and invitation mails, the actions' send-mail block. */
export interface Mailer {
  readonly kind: 'log' | 'smtp';
  send(message: MailMessage, options?: MailOptions): Promise<void>;
}

/**
 * Development and tests: mails are written to the log, never delivered (spec, Events 5). The line
 * carries the sender's trace ids, like every other line written inside a trace.
 */
export function createLogMailer(logger: Logger): Mailer {
  return {
    kind: 'log',
    async send(message, options) {
      logger.info({ ...traceLogFields(options?.traceContext), mail: message }, `mail to ${message.to}: ${message.subject}`);
    },
  };
}

/** SMTP delivery through nodemailer, for production when SMTP_URL is configured. */
export function createSmtpMailer(options: { url: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(options.url);
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({ from: options.from, ...message });
    },
  };
}

import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** The mailer port: identity's welcome mail, the actions' send-mail block. */
export interface Mailer {
  readonly kind: 'log' | 'smtp';
  send(message: MailMessage): Promise<void>;
}

/** Development and tests: mails are written to the log, never delivered (spec, Events 5). */
export function createLogMailer(logger: Logger): Mailer {
  return {
    kind: 'log',
    async send(message) {
      logger.info({ mail: message }, `mail to ${message.to}: ${message.subject}`);
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

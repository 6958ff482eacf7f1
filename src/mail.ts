import nodemailer from 'nodemailer';
import type { Logger } from './logger';

/** One plain-text message. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail through the operator's SMTP server (`SMTP_URL`). */
export interface Mailer {
  /** Whether the server accepted the message; a failure is logged (without the message), not thrown. */
  send(mail: Mail): Promise<boolean>;
  close(): void;
}

/** Bounds on a slow or silent SMTP server: connecting, its greeting, and any later silence. */
const SMTP_TIMEOUT_MS = 10_000;

export function smtpMailer(settings: { url: string; from: string }, logger: Logger): Mailer {
  const transport = nodemailer.createTransport(
    { url: settings.url, connectionTimeout: SMTP_TIMEOUT_MS, greetingTimeout: SMTP_TIMEOUT_MS, socketTimeout: SMTP_TIMEOUT_MS },
    { from: settings.from },
  );
  return {
    async send(mail) {
      try {
        await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text });
        return true;
      } catch (error) {
        logger.warn('mail not sent', { to: mail.to, subject: mail.subject, error: (error as Error).message });
        return false;
      }
    },
    close: () => transport.close(),
  };
}

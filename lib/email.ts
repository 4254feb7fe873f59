import 'server-only';
import nodemailer, { type Transporter } from 'nodemailer';
import { getEnv } from '@/lib/env';
import { logWarning } from '@/lib/log';

/**
 * Email over SMTP (nodemailer), off unless `SMTP_URL` is set. Setpoint sends what a person must
 * act on (invitations, and notifications later); where email is off, the page shows the link
 * to pass on instead.
 */
export type Email = { to: string; subject: string; text: string; html: string };

let transport: Transporter | undefined;

export function emailEnabled(): boolean {
  return Boolean(getEnv().SMTP_URL);
}

/** Sends one message; false (logged, never thrown) when email is off or the server refused it. */
export async function sendEmail(email: Email): Promise<boolean> {
  const env = getEnv();
  if (!env.SMTP_URL) return false;
  transport ??= nodemailer.createTransport(env.SMTP_URL);
  try {
    await transport.sendMail({ from: env.SMTP_FROM, ...email });
    return true;
  } catch (error) {
    // The SMTP URL can carry a password: log the failure's kind, never the configuration.
    logWarning('email not sent', error instanceof Error ? error.name : 'unknown error');
    return false;
  }
}

/** Text for an HTML body: every character that means something in HTML escaped. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ??
      character,
  );
}

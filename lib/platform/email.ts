import 'server-only';
import nodemailer, { type Transporter } from 'nodemailer';
import { getEnv } from '@/lib/platform/env';
import { logWarning } from '@/lib/platform/log';

/**
 * Email over SMTP (nodemailer), off unless `SMTP_URL` is set. Setpoint sends what a person must
 * act on (invitations, notifications); where email is off, the page shows the link to pass on
 * instead, and notifications are logged as not sent.
 */
export type Email = { to: string; subject: string; text: string; html: string };

let transport: Transporter | undefined;

export function emailEnabled(): boolean {
  return Boolean(getEnv().SMTP_URL);
}

/** What came of sending: the server's id for it, or why not in words (never the configuration). */
export type EmailResult =
  | { ok: true; messageId: string | null }
  | {
      ok: false;
      reason: string;
      /** The server refused it for good (a 5xx answer): sending it again would not help. */
      permanent: boolean;
    };

/**
 * Sends one message and says how it went, for callers that keep a delivery log
 * (notifications). Never throws.
 */
export async function deliverEmail(email: Email): Promise<EmailResult> {
  const env = getEnv();
  if (!env.SMTP_URL) {
    return { ok: false, reason: 'Email is not set up (SMTP_URL).', permanent: true };
  }
  // Timeouts well under a delivery job's expiry (and its claim on the notices), so an attempt
  // ends, counted, before the queue would run the job again (nodemailer waits minutes by default).
  transport ??= nodemailer.createTransport(withTimeouts(env.SMTP_URL));
  try {
    const info = await transport.sendMail({ from: env.SMTP_FROM, ...email });
    return { ok: true, messageId: typeof info.messageId === 'string' ? info.messageId : null };
  } catch (error) {
    const failure = failureOf(error);
    // The SMTP URL can carry a password: log the failure's kind, never the configuration.
    logWarning('email not sent', failure.reason);
    return { ok: false, ...failure };
  }
}

/** The mail transport's timeouts, in ms: each well under a delivery job's 120 s expiry. */
export const SMTP_TIMEOUTS = {
  connectionTimeout: 20_000,
  greetingTimeout: 20_000,
  socketTimeout: 60_000,
};

/**
 * The SMTP URL with SMTP_TIMEOUTS as query options where it sets none (nodemailer reads its
 * options from a URL's query, and takes no other options beside a URL).
 */
export function withTimeouts(smtpUrl: string): string {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    return smtpUrl;
  }
  for (const [key, ms] of Object.entries(SMTP_TIMEOUTS)) {
    if (!url.searchParams.has(key)) url.searchParams.set(key, String(ms));
  }
  return url.toString();
}

/** Sends one message; false (logged, never thrown) when email is off or the server refused it. */
export async function sendEmail(email: Email): Promise<boolean> {
  if (!emailEnabled()) return false;
  return (await deliverEmail(email)).ok;
}

/**
 * A nodemailer failure in words: the SMTP answer's code, or the connection's error code. The
 * server's own text is left out: it may quote the address or the account.
 */
function failureOf(error: unknown): { reason: string; permanent: boolean } {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  if (typeof responseCode === 'number') {
    const permanent = responseCode >= 500;
    return {
      reason: `The mail server ${permanent ? 'refused' : 'deferred'} the message (SMTP ${responseCode}).`,
      permanent,
    };
  }
  const known: Record<string, string> = {
    EAUTH: 'The mail server refused the sign-in.',
    ECONNECTION: 'Could not connect to the mail server.',
    ETIMEDOUT: 'The mail server did not answer in time.',
    ESOCKET: 'The connection to the mail server failed.',
    EDNS: 'The mail server’s name could not be found.',
    ETLS: 'The secure connection to the mail server failed.',
    EENVELOPE: 'The mail server refused the recipient.',
  };
  const text = typeof code === 'string' ? code : error instanceof Error ? error.name : 'unknown';
  return {
    reason: known[text] ?? `Could not send it (${text.replace(/[^\w-]/g, '').slice(0, 40)}).`,
    permanent: text === 'EENVELOPE',
  };
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

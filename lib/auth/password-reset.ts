import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { logActivity } from '@/lib/activity/sink';
import {
  createPasswordReset,
  findPasswordReset,
  findResetAccount,
  type PasswordResetProblem,
  prunePasswordResets,
  type ResetAccount,
  spendPasswordReset,
} from './password-resets-store';
import { unlockSignIn } from '@/lib/auth/store';
import { type Email, escapeHtml } from '@/lib/platform/email';
import { getEnv } from '@/lib/platform/env';
import { formatMoment } from '@/lib/platform/time-format';
import { hashPassword } from './password';
import { startPasswordResetRequest } from './throttle';

/**
 * A way back into an account: a link to choose a new password, emailed to the account when
 * someone asks for one on the sign-in page (where email is set up), or issued by the operator's
 * command (`npm run password:reset`, scripts/reset-password.ts) where it is not.
 *
 * - The link is good once, for 30 minutes; only its token's hash is stored.
 * - Asking answers the same whatever the email (an account, none, one that signs in only with
 *   company SSO, or one asked for too often): the answer never says whether an account exists.
 *   The email goes out after the answer (the action's `after`), so its time does not tell either.
 * - Choosing a new password through it spends every link of the account, ends every session
 *   of the account, lifts a sign-in lock (the link proved the mailbox is theirs) and is
 *   recorded in the organisation's activity log.
 * - An account that signs in only with company SSO gets no link (a password would shut its SSO
 *   sign-in out): it is emailed that it has no password, and how it signs in.
 */
export const RESET_LIFETIME_MS = 30 * 60 * 1000;

/** The activity entry a reset records (a `member.password_reset` of its own would fit better). */
const RESET_ACTIVITY = 'member.password_reset' as const;

export const hashResetToken = (token: string) =>
  createHash('sha256').update(token).digest('base64url');

/** Where a reset link leads: under /sign-in, with the pages a signed-out person may open. */
export const resetLink = (token: string) =>
  new URL(`/sign-in/reset-password/${token}`, getEnv().NEXTAUTH_URL).toString();

/** A token as links carry them: anything else is not looked up at all. */
const isTokenShaped = (token: unknown): token is string =>
  typeof token === 'string' && /^[\w-]{20,100}$/.test(token);

export const RESET_PROBLEMS: Record<PasswordResetProblem, string> = {
  unknown: 'This reset link is not valid. Check that you copied all of it, or ask for a new link.',
  used: 'This reset link has already been used: each link works once. If you still cannot sign in, ask for a new link.',
  expired: 'This reset link has expired: links work for 30 minutes. Ask for a new link.',
};

/** What the request form says every time, whatever the email. */
export const RESET_REQUESTED =
  'If that email belongs to an account here, a message is on its way to it with a link to choose a new password. The link works once, for 30 minutes. Nothing after a few minutes? Check your spam folder, or ask an owner or admin of your organisation.';

/** Said where email is off: no link can be sent, and who can help instead. */
export const NO_EMAIL =
  'This Setpoint does not send email, so it cannot send you a link. Ask the person who runs Setpoint for your organisation to issue you a reset link (they have a command for it).';

/** Creates a link for an account: its address (shown or sent once) and when it stops working. */
export async function issuePasswordReset(input: {
  account: Pick<ResetAccount, 'userId'>;
  now?: Date;
}): Promise<{ link: string; expiresAt: Date }> {
  const now = input.now ?? new Date();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + RESET_LIFETIME_MS);
  await createPasswordReset({
    userId: input.account.userId,
    tokenHash: hashResetToken(token),
    expiresAt,
    now,
  });
  return { link: resetLink(token), expiresAt };
}

/**
 * Someone asked for a link for `email` on the sign-in page. Answers `answered` (say
 * RESET_REQUESTED) or `throttled` (too many requests from this client), and hands the message
 * to send, if any, to `deliver`: the caller sends it after answering.
 */
export async function requestPasswordReset(input: {
  email: string;
  client: string;
  deliver: (message: Email) => void;
  now?: Date;
}): Promise<{ outcome: 'answered' } | { outcome: 'throttled'; retryAfterSeconds: number }> {
  const now = input.now ?? new Date();
  const verdict = await startPasswordResetRequest({
    email: input.email,
    client: input.client,
    now,
  });
  if (!verdict.allowed)
    return { outcome: 'throttled', retryAfterSeconds: verdict.retryAfterSeconds };
  // Spent and expired links do not pile up (lib/db/upkeep.ts).
  await prunePasswordResets({ now });
  if (!verdict.send) return { outcome: 'answered' };
  const account = await findResetAccount({ email: input.email });
  if (!account) return { outcome: 'answered' };
  if (!account.hasPassword) {
    input.deliver(ssoOnlyEmail(account));
    return { outcome: 'answered' };
  }
  const { link, expiresAt } = await issuePasswordReset({ account, now });
  input.deliver(resetEmail({ account, link, expiresAt }));
  return { outcome: 'answered' };
}

/** A link's page: the account it is for while it can be used, or why it cannot. */
export async function readPasswordReset(
  token: unknown,
  now?: Date,
): Promise<{ ok: true; account: ResetAccount } | { ok: false; problem: PasswordResetProblem }> {
  if (!isTokenShaped(token)) return { ok: false, problem: 'unknown' };
  const found = await findPasswordReset({ tokenHash: hashResetToken(token), now });
  return found.ok ? { ok: true, account: found.account } : found;
}

/**
 * Sets the new password (already checked against the policy) through a link, once: every
 * session of the account ends, its sign-in lock is lifted, and the activity log says so.
 */
export async function completePasswordReset(input: {
  token: unknown;
  password: string;
  now?: Date;
}): Promise<{ ok: true; account: ResetAccount } | { ok: false; problem: PasswordResetProblem }> {
  if (!isTokenShaped(input.token)) return { ok: false, problem: 'unknown' };
  const used = await spendPasswordReset({
    tokenHash: hashResetToken(input.token),
    passwordHash: await hashPassword(input.password),
    now: input.now,
  });
  if (!used.ok) return used;
  const { account, sessionsEnded } = used;
  await unlockSignIn({ email: account.email, at: input.now });
  await logActivity({
    actor: { orgId: account.orgId, userId: account.userId, name: account.name },
    action: RESET_ACTIVITY,
    summary: `${account.name} chose a new password with a reset link; ${sessionsInWords(sessionsEnded)}`,
    changes: { email: account.email, password: 'changed', sessionsEnded },
  });
  return { ok: true, account };
}

/** For the operator's command: records that a link was issued outside the app. */
export async function recordIssuedByOperator(account: ResetAccount): Promise<void> {
  await logActivity({
    actor: { orgId: account.orgId, userId: null, name: 'Setpoint' },
    action: RESET_ACTIVITY,
    summary: `The operator of this Setpoint issued a password reset link for ${account.name}`,
    changes: { email: account.email },
  });
}

const sessionsInWords = (count: number) =>
  count === 0
    ? 'no session was open'
    : `${count === 1 ? 'its one session was' : `all ${count} of its sessions were`} signed out`;

export function resetEmail(input: {
  account: Pick<ResetAccount, 'email' | 'name' | 'orgName' | 'timeZone'>;
  link: string;
  expiresAt: Date;
}): Email {
  const { account, link } = input;
  const until = formatMoment(input.expiresAt, account.timeZone);
  const text = [
    `Someone (we hope you) asked to reset the password of your Setpoint account, ${account.email}, at ${account.orgName}.`,
    '',
    `Choose a new password: ${link}`,
    '',
    `The link works once, until ${until} (30 minutes). Choosing a new password signs your account out everywhere.`,
    '',
    'If you did not ask, ignore this message: your password stays as it is.',
  ].join('\n');
  const html = `<p>Someone (we hope you) asked to reset the password of your Setpoint account, ${escapeHtml(account.email)}, at <strong>${escapeHtml(account.orgName)}</strong>.</p>
<p><a href="${escapeHtml(link)}">Choose a new password</a></p>
<p>The link works once, until ${escapeHtml(until)} (30 minutes). Choosing a new password signs your account out everywhere.</p>
<p>If you did not ask, ignore this message: your password stays as it is.</p>`;
  return { to: account.email, subject: 'Choose a new password for Setpoint', text, html };
}

/** To an account that signs in only with company SSO: there is no password to reset. */
export function ssoOnlyEmail(account: Pick<ResetAccount, 'email' | 'orgName'>): Email {
  const env = getEnv();
  const signIn = new URL('/sign-in', env.NEXTAUTH_URL).toString();
  const sso = env.OIDC_DISPLAY_NAME;
  const text = [
    `Someone (we hope you) asked to reset the password of your Setpoint account, ${account.email}, at ${account.orgName}.`,
    '',
    `Your account has no password: it signs in with ${sso}. Use “Sign in with ${sso}” at ${signIn}`,
    '',
    'If you did not ask, ignore this message.',
  ].join('\n');
  const html = `<p>Someone (we hope you) asked to reset the password of your Setpoint account, ${escapeHtml(account.email)}, at <strong>${escapeHtml(account.orgName)}</strong>.</p>
<p>Your account has no password: it signs in with ${escapeHtml(sso)}. Use “Sign in with ${escapeHtml(sso)}” on <a href="${escapeHtml(signIn)}">the sign-in page</a>.</p>
<p>If you did not ask, ignore this message.</p>`;
  return { to: account.email, subject: 'How you sign in to Setpoint', text, html };
}

import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { rowsOf } from '@/lib/db/client';
import type { Email } from '@/lib/platform/email';
import { startSmtpServer } from '../support/smtp';

// The actions read headers and cookies, send after answering and redirect: here a header that
// names the client, a cookie jar, `after` collected to run when the test says, and a redirect
// that ends the action.
const request = vi.hoisted(() => ({
  client: '203.0.113.7',
  jar: new Map<string, { value: string }>(),
  after: [] as (() => unknown)[],
}));
vi.mock('next/headers', () => ({
  headers: async () => new Headers({ 'x-setpoint-client-address': request.client }),
  cookies: async () => ({
    get: (name: string) => request.jar.get(name),
    set: (cookie: { name: string; value: string }) => request.jar.set(cookie.name, cookie),
  }),
}));
vi.mock('next/server', () => ({
  after: (task: () => unknown) => {
    request.after.push(task);
  },
}));
vi.mock('next/navigation', () => ({
  redirect: (to: string) => {
    throw Object.assign(new Error('redirect'), { to });
  },
}));

const smtp = await startSmtpServer();
Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-reset-')),
  NEXTAUTH_URL: 'https://setpoint.example.com',
  SMTP_URL: smtp.url,
});
// As server.ts marks a process whose client-address header it sets from the socket.
(globalThis as Record<symbol, unknown>)[Symbol.for('setpoint.client-address-header')] = true;

const { useDatabase } = await import('../support/database');
const { redirectedWith, redirectOf } = await import('../support/notice');
const { createFirstOwner, inviteAndAccept, signIn } = await import('../support/members');
const {
  completePasswordReset,
  hashResetToken,
  issuePasswordReset,
  RESET_PROBLEMS,
  RESET_REQUESTED,
  readPasswordReset,
  requestPasswordReset,
} = await import('@/lib/auth/password-reset');
const { verifyPassword } = await import('@/lib/auth/password');
const { startSignInAttempt } = await import('@/lib/auth/throttle');
const { findResetAccount } = await import('@/lib/auth/password-resets-store');
const { findSessionMember, findUserByEmail } = await import('@/lib/auth/store');
const { prunePasswordResets } = await import('@/lib/auth/password-resets-store');
const { requestPasswordResetAction } = await import(
  '@/app/(public)/sign-in/forgot-password/actions'
);
const { resetPasswordAction } = await import(
  '@/app/(public)/sign-in/reset-password/[token]/actions'
);
const { PASSWORD_PROBLEMS } = await import('@/lib/auth/password-policy');

const NEW_PASSWORD = 'a brand new staple for the horse';
const OWNER = 'owner@example.com';

/** The token of the one link in a message (its address ends in the token). */
const tokenIn = (text: string | undefined) =>
  text?.match(/\/sign-in\/reset-password\/([\w-]+)/)?.[1] ?? null;

/** A reset request as the lib takes it; returns what it answered and what it would send. */
async function ask(email: string, client = '198.51.100.1', now?: Date) {
  const sent: Email[] = [];
  const answer = await requestPasswordReset({
    email,
    client,
    deliver: (message) => sent.push(message),
    now,
  });
  return { answer, sent };
}

/**
 * A way back into an account (issue 35, item 11): a link by email, good once for 30 minutes,
 * stored only as a hash; using it sets the password, ends every session and is logged. Asking
 * says the same for every email, and is throttled per email and per client.
 */
describe('password reset', () => {
  let handle: DatabaseHandle;
  let orgId: string;
  beforeAll(async () => {
    handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
    const owner = await createFirstOwner(OWNER, 'Reyes Property');
    orgId = owner.orgId;
    await handle.db.execute(
      sql`update users set password_hash = ${await (await import('@/lib/auth/password')).hashPassword('the old password, long enough')} where email = ${OWNER}`,
    );
    // A member who signs in only with company SSO (no password).
    await inviteAndAccept(orgId, 'sso@example.com', 'viewer');
    await handle.db.execute(
      sql`update users set password_hash = null where email = 'sso@example.com'`,
    );
  });
  afterAll(async () => {
    await handle.close();
    await smtp.close();
  });
  beforeEach(() => {
    request.after.length = 0;
  });

  it('emails a link that works once, for 30 minutes, stored only as a hash', async () => {
    const { answer, sent } = await ask(OWNER);
    expect(answer).toEqual({ outcome: 'answered' });
    expect(sent).toHaveLength(1);
    const [message] = sent;
    expect(message?.to).toBe(OWNER);
    expect(message?.subject).toBe('Choose a new password for Setpoint');
    const token = tokenIn(message?.text);
    expect(token).not.toBeNull();
    expect(message?.text).toContain(`https://setpoint.example.com/sign-in/reset-password/${token}`);
    expect(message?.text).toMatch(/works once, until .+ UTC \(30 minutes\)/);
    expect(message?.html).toContain(`/sign-in/reset-password/${token}`);

    const stored = rowsOf<{ token_hash: string; minutes: number }>(
      await handle.db.execute(sql`select token_hash,
        extract(epoch from expires_at - created_at) / 60 as minutes from password_resets`),
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash).toBe(hashResetToken(token ?? ''));
    expect(stored[0]?.token_hash).not.toContain(token ?? '');
    expect(Number(stored[0]?.minutes)).toBe(30);
    const page = await readPasswordReset(token);
    expect(page).toMatchObject({ ok: true, account: { email: OWNER, orgName: 'Reyes Property' } });
  });

  it('choosing a new password sets it, spends every link, ends every session and is logged', async () => {
    const account = await findResetAccount({ email: OWNER });
    if (!account) throw new Error('no account');
    const first = tokenIn((await ask(OWNER)).sent[0]?.text);
    const second = tokenIn((await ask(OWNER)).sent[0]?.text);
    const sessions = [await signIn(account.userId), await signIn(account.userId)];
    for (const { sessionId } of sessions)
      expect(await findSessionMember({ sessionId })).not.toBeNull();

    const done = await completePasswordReset({ token: first, password: NEW_PASSWORD });
    expect(done).toMatchObject({ ok: true, account: { email: OWNER } });
    const user = await findUserByEmail({ email: OWNER });
    expect(await verifyPassword(user?.passwordHash ?? '', NEW_PASSWORD)).toBe(true);
    expect(await verifyPassword(user?.passwordHash ?? '', 'the old password, long enough')).toBe(
      false,
    );
    for (const { sessionId } of sessions) expect(await findSessionMember({ sessionId })).toBeNull();

    // Once: this link and the other one still out are spent.
    expect(await readPasswordReset(first)).toEqual({ ok: false, problem: 'used' });
    expect(await readPasswordReset(second)).toEqual({ ok: false, problem: 'used' });
    expect(
      await completePasswordReset({ token: second, password: 'yet another staple, horse' }),
    ).toEqual({
      ok: false,
      problem: 'used',
    });

    const [logged] = rowsOf<{ summary: string; changes: unknown; user_id: string }>(
      await handle.db.execute(sql`select summary, changes, user_id from activity_log
        where org_id = ${orgId} and summary like '%reset link%'`),
    );
    expect(logged?.summary).toMatch(
      /^Owner chose a new password with a reset link; all \d+ of its sessions were signed out$/,
    );
    expect(logged?.user_id).toBe(account.userId);
    expect(JSON.stringify(logged?.changes)).not.toContain(NEW_PASSWORD);
  });

  it('says plainly when a link is expired or unknown', async () => {
    const account = await findResetAccount({ email: OWNER });
    if (!account) throw new Error('no account');
    const past = new Date(Date.now() - 31 * 60_000);
    const { link } = await issuePasswordReset({ account, now: past });
    const token = link.split('/').pop();
    expect(await readPasswordReset(token)).toEqual({ ok: false, problem: 'expired' });
    expect(await completePasswordReset({ token, password: NEW_PASSWORD })).toEqual({
      ok: false,
      problem: 'expired',
    });
    expect(await readPasswordReset(randomBytes(32).toString('base64url'))).toEqual({
      ok: false,
      problem: 'unknown',
    });
    expect(await readPasswordReset('../../etc')).toEqual({ ok: false, problem: 'unknown' });
    expect(RESET_PROBLEMS.expired).toMatch(/expired/);
  });

  it('answers the same for an unknown email and an SSO-only account; the SSO one is told how it signs in', async () => {
    const nobody = await ask('nobody@example.com');
    expect(nobody).toEqual({ answer: { outcome: 'answered' }, sent: [] });
    const sso = await ask('sso@example.com');
    expect(sso.answer).toEqual({ outcome: 'answered' });
    expect(sso.sent).toHaveLength(1);
    expect(sso.sent[0]?.text).toContain('Your account has no password');
    expect(tokenIn(sso.sent[0]?.text)).toBeNull();
    const ssoLinks = rowsOf<{ n: number }>(
      await handle.db.execute(sql`select count(*)::int as n from password_resets r
        join users u on u.id = r.user_id where u.email = 'sso@example.com'`),
    );
    expect(ssoLinks[0]?.n).toBe(0);
  });

  it('throttles per email (silently: the same answer, nothing sent) and per client (wait)', async () => {
    const email = 'throttled@example.com';
    await inviteAndAccept(orgId, email, 'viewer');
    const clients = ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4'];
    const sent: number[] = [];
    for (const client of clients) {
      const { answer, sent: messages } = await ask(email, client);
      expect(answer).toEqual({ outcome: 'answered' });
      sent.push(messages.length);
    }
    // Three links an hour for one email, whoever asks.
    expect(sent).toEqual([1, 1, 1, 0]);

    // Ten requests an hour from one client, whatever the emails.
    const answers: string[] = [];
    for (let i = 0; i < 11; i += 1) {
      answers.push((await ask(`guess${i}@example.com`, '192.0.2.99')).answer.outcome);
    }
    expect(answers).toEqual([...Array(10).fill('answered'), 'throttled']);

    // Asking for links neither locks the account's sign-in nor lifts a lock.
    for (let i = 0; i < 8; i += 1) await ask(OWNER, `192.0.2.${100 + i}`);
    expect(
      await startSignInAttempt({ email: OWNER, client: '192.0.2.200', device: null }),
    ).toMatchObject({ allowed: true });
  });

  it('prunes links spent or expired over a day ago', async () => {
    const account = await findResetAccount({ email: OWNER });
    if (!account) throw new Error('no account');
    const count = async () =>
      rowsOf<{ n: number }>(
        await handle.db.execute(sql`select count(*)::int as n from password_resets`),
      )[0]?.n;
    const before = await count();
    await issuePasswordReset({ account, now: new Date(Date.now() - 3 * 86_400_000) });
    expect(await count()).toBe((before ?? 0) + 1);
    const pruned = await prunePasswordResets();
    expect(pruned.links).toBeGreaterThanOrEqual(1);
    // The links spent a moment ago stay a day, so that clicking one again says it was used.
    expect(await count()).toBeGreaterThanOrEqual(1);
  });

  it('the request form answers the same whatever the email, and the mail goes out after it', async () => {
    const form = (email: string) => {
      const data = new FormData();
      data.set('email', email);
      return data;
    };
    request.client = '192.0.2.150';
    const pat = 'pat@example.com';
    await inviteAndAccept(orgId, pat, 'admin');
    const known = await requestPasswordResetAction({ status: 'idle' }, form('Pat@Example.com'));
    const unknown = await requestPasswordResetAction(
      { status: 'idle' },
      form('nobody@example.com'),
    );
    expect(known).toEqual({
      status: 'success',
      message: RESET_REQUESTED,
      values: { email: 'Pat@Example.com' },
    });
    expect(unknown).toEqual({
      status: 'success',
      message: RESET_REQUESTED,
      values: { email: 'nobody@example.com' },
    });
    const invalid = await requestPasswordResetAction({ status: 'idle' }, form('not an email'));
    expect(invalid.fieldErrors?.email).toEqual(['Enter a valid email address.']);

    // Sent after the answer: one message, over SMTP, to the account only.
    const inbox = smtp.inbox.length;
    expect(request.after).toHaveLength(1);
    await Promise.all(request.after.map((task) => task()));
    const mail = (await smtp.waitFor(inbox + 1))[inbox];
    expect(mail?.to && 'text' in mail.to ? mail.to.text : '').toBe(pat);
    const token = tokenIn(mail?.text);
    expect(token).not.toBeNull();

    // The link's form: the policy applies, then the password is set and the person signs in.
    const choose = (password: string, confirm = password) => {
      const data = new FormData();
      data.set('password', password);
      data.set('confirm', confirm);
      return resetPasswordAction(token ?? '', { status: 'idle' }, data);
    };
    expect(await choose('password1234')).toEqual({
      status: 'error',
      fieldErrors: { password: [PASSWORD_PROBLEMS.short] },
    });
    expect(await choose('we manage Reyes Property well')).toEqual({
      status: 'error',
      fieldErrors: { password: [PASSWORD_PROBLEMS.organization] },
    });
    expect(redirectedWith(await redirectOf(choose(NEW_PASSWORD)), 'anyone')).toMatchObject({
      to: '/sign-in',
      notice: { key: 'passwordChanged' },
    });
    expect(request.jar.get('setpoint.sign-in-email')?.value).toBe(pat);
    expect(await choose('and once more, please')).toEqual({
      status: 'error',
      message: RESET_PROBLEMS.used,
    });
  });
});

import 'server-only';
import { and, eq, gt, isNotNull, isNull, like, lt, or } from 'drizzle-orm';
import { type Database, getDb } from '@/lib/db/client';
import { deleteSignInAttempt, recordSignInAttempt } from './store';
import {
  memberships,
  organizations,
  passwordResets,
  sessions,
  signInAttempts,
  users,
} from '@/lib/db/schema';

/**
 * Password reset links and the requests for them. A link belongs to one account (a person is a
 * member of one organisation), found by the hash of its token, which is unguessable: these
 * queries are scoped by the account, and they bring its organisation for the activity log. Only
 * an account that is a member of an organisation is ever found: a removed person could not sign
 * in with a new password anyway.
 *
 * Requests are counted (lib/auth/throttle.ts) in `sign_in_attempts`, under keys no sign-in can
 * have: the email column holds `reset:<email>` (never an address: a colon is not allowed in
 * one) and the client column `reset:<client address>`, so a request counts neither as a failed
 * sign-in of the account (which would let anyone lock an account by asking for links) nor as a
 * success (which would let anyone reset its sign-in lock).
 */

/** An account a reset link is for, with its organisation. */
export type ResetAccount = {
  userId: string;
  email: string;
  name: string;
  /** False for an account that signs in only through company SSO. */
  hasPassword: boolean;
  timeZone: string | null;
  orgId: string;
  orgName: string;
};

export type PasswordResetProblem = 'unknown' | 'used' | 'expired';

const accountColumns = {
  userId: users.id,
  email: users.email,
  name: users.name,
  passwordHash: users.passwordHash,
  timeZone: users.timeZone,
  orgId: memberships.orgId,
  orgName: organizations.name,
};

type AccountRow = { passwordHash: string | null } & Omit<ResetAccount, 'hasPassword'>;
const accountOf = ({ passwordHash, ...row }: AccountRow): ResetAccount => ({
  ...row,
  hasPassword: passwordHash !== null,
});

/** The member account of an email, or null (no account, or one that is a member nowhere). */
export async function findResetAccount({ email }: { email: string }): Promise<ResetAccount | null> {
  const db = await getDb();
  const [row] = await db
    .select(accountColumns)
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .innerJoin(organizations, eq(organizations.id, memberships.orgId))
    .where(eq(users.email, email.toLowerCase()))
    .limit(1);
  return row ? accountOf(row) : null;
}

/** Stores a new link (its token's hash only) for an account. */
export async function createPasswordReset(input: {
  userId: string;
  tokenHash: string;
  expiresAt: Date;
  now?: Date;
}): Promise<void> {
  const db = await getDb();
  await db.insert(passwordResets).values({
    userId: input.userId,
    tokenHash: input.tokenHash,
    expiresAt: input.expiresAt,
    createdAt: input.now ?? new Date(),
  });
}

async function findReset(tx: Pick<Database, 'select'>, tokenHash: string, lock: boolean) {
  const query = tx
    .select({
      id: passwordResets.id,
      expiresAt: passwordResets.expiresAt,
      usedAt: passwordResets.usedAt,
      ...accountColumns,
    })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .innerJoin(organizations, eq(organizations.id, memberships.orgId))
    .where(eq(passwordResets.tokenHash, tokenHash))
    .limit(1);
  const [row] = await (lock ? query.for('update', { of: passwordResets }) : query);
  return row ?? null;
}

const problemOf = (
  reset: { usedAt: Date | null; expiresAt: Date } | null,
  now: Date,
): PasswordResetProblem | null =>
  !reset ? 'unknown' : reset.usedAt ? 'used' : reset.expiresAt <= now ? 'expired' : null;

/** A link's account while it can still be used; otherwise why not. */
export async function findPasswordReset(input: {
  tokenHash: string;
  now?: Date;
}): Promise<
  | { ok: true; account: ResetAccount; expiresAt: Date }
  | { ok: false; problem: PasswordResetProblem }
> {
  const db = await getDb();
  const row = await findReset(db, input.tokenHash, false);
  const problem = problemOf(row, input.now ?? new Date());
  if (!row || problem) return { ok: false, problem: problem ?? 'unknown' };
  const { id: _id, expiresAt, usedAt: _used, ...account } = row;
  return { ok: true, account: accountOf(account), expiresAt };
}

/**
 * Uses a link, once: sets the account's new password, spends every link of the account (this
 * one and any other still out) and ends every session of the account, in one transaction. The
 * link's row is locked first, so two submissions of one link set one password.
 */
export async function spendPasswordReset(input: {
  tokenHash: string;
  passwordHash: string;
  now?: Date;
}): Promise<
  | { ok: true; account: ResetAccount; sessionsEnded: number }
  | { ok: false; problem: PasswordResetProblem }
> {
  const db = await getDb();
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const row = await findReset(tx, input.tokenHash, true);
    const problem = problemOf(row, now);
    if (!row || problem) return { ok: false, problem: problem ?? 'unknown' };
    await tx
      .update(users)
      .set({ passwordHash: input.passwordHash })
      .where(eq(users.id, row.userId));
    await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, row.userId), isNull(passwordResets.usedAt)));
    const ended = await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, row.userId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    const { id: _id, expiresAt: _expires, usedAt: _used, ...account } = row;
    return { ok: true, account: accountOf(account), sessionsEnded: ended.length };
  });
}

// --- Requests, for throttling --------------------------------------------------------------------

/** The key prefix of a reset request's row in `sign_in_attempts` (see above). */
export const RESET_REQUEST_PREFIX = 'reset:';

/**
 * Records a request for a link (whether or not the email has an account); returns its id. A
 * sign-in attempt's row under the reset keys: recorded, and removed, as sign-in attempts are.
 */
export async function recordPasswordResetRequest(input: {
  email: string;
  client: string;
  at?: Date;
}): Promise<number> {
  return recordSignInAttempt({
    email: `${RESET_REQUEST_PREFIX}${input.email}`,
    client: `${RESET_REQUEST_PREFIX}${input.client}`,
    succeeded: false,
    at: input.at,
  });
}

/** The requests for one email or from one client since `since`, oldest first. */
export async function listRecentPasswordResetRequests(input: {
  email?: string;
  client?: string;
  since: Date;
}): Promise<{ id: number; at: Date }[]> {
  const db = await getDb();
  return db
    .select({ id: signInAttempts.id, at: signInAttempts.createdAt })
    .from(signInAttempts)
    .where(
      and(
        input.email === undefined
          ? undefined
          : eq(signInAttempts.email, `${RESET_REQUEST_PREFIX}${input.email.toLowerCase()}`),
        input.client === undefined
          ? undefined
          : eq(signInAttempts.client, `${RESET_REQUEST_PREFIX}${input.client}`),
        gt(signInAttempts.createdAt, input.since),
      ),
    )
    .orderBy(signInAttempts.id);
}

/** Removes a refused request's own record, so that waiting out a limit is not prolonged. */
export const deletePasswordResetRequest = deleteSignInAttempt;

/** How long a spent or expired reset link is kept: clicked again, it says so, not "not valid". */
export const SPENT_RESET_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * Removes password reset links spent or expired more than a day ago, and the records of reset
 * requests older than a day (their throttle counts an hour). Run as links are asked for
 * (password-reset.ts), so the tables stay small on every database. Returns how many of
 * each went.
 */
export async function prunePasswordResets(
  input: { now?: Date } = {},
): Promise<{ links: number; requests: number }> {
  const db = await getDb();
  const before = new Date((input.now ?? new Date()).getTime() - SPENT_RESET_KEPT_MS);
  const links = await db
    .delete(passwordResets)
    .where(
      or(
        and(isNotNull(passwordResets.usedAt), lt(passwordResets.usedAt, before)),
        lt(passwordResets.expiresAt, before),
      ),
    )
    .returning({ id: passwordResets.id });
  const requests = await db
    .delete(signInAttempts)
    .where(
      and(
        like(signInAttempts.client, `${RESET_REQUEST_PREFIX}%`),
        lt(signInAttempts.createdAt, before),
      ),
    )
    .returning({ id: signInAttempts.id });
  return { links: links.length, requests: requests.length };
}

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '@/lib/auth/password';
import {
  ACCOUNT_WINDOW_MS,
  finishSignInAttempt,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ACCOUNT_AND_CLIENT,
  MAX_FAILURES_PER_CLIENT,
  MAX_FAILURES_PER_DEVICE,
  SIGN_IN_WINDOW_MS,
  startSignInAttempt,
} from '@/lib/auth/throttle';
import type { DatabaseHandle } from '@/lib/db/client';
import {
  countUsers,
  createFirstOrganization,
  createSession,
  findSessionMember,
  findUserByEmail,
  revokeSession,
  unlockSignIn,
} from '@/lib/auth/store';
import { databaseTargets, useDatabase } from '../support/database';

const createFirstUser = (account: { name: string; email: string; passwordHash: string }) =>
  createFirstOrganization({ orgName: 'Org', ...account });

describe.each(databaseTargets)('data layer on $name', ({ target }) => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await useDatabase(await target());
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(async () => {
    await handle.db.execute(sql`truncate users, sessions, sign_in_attempts, organizations cascade`);
  });

  it('creates exactly one first account, even when two setups race', async () => {
    const account = { name: 'A', email: 'First@Example.com', passwordHash: 'x' };
    const results = await Promise.all([
      createFirstUser(account),
      createFirstUser({ ...account, email: 'second@example.com' }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await countUsers()).toBe(1);
    expect(await createFirstUser({ ...account, email: 'third@example.com' })).toBeNull();
  });

  it('finds accounts by email whatever its case', async () => {
    await createFirstUser({ name: 'A', email: 'Case@Example.com', passwordHash: 'x' });
    expect((await findUserByEmail({ email: 'CASE@example.COM' }))?.email).toBe('case@example.com');
    expect(await findUserByEmail({ email: 'nobody@example.com' })).toBeNull();
  });

  it('keeps a session live until it expires or is revoked', async () => {
    const user = await createFirstUser({ name: 'A', email: 'a@example.com', passwordHash: 'x' });
    if (!user) throw new Error('no user');
    const now = new Date();
    await createSession({ id: 's1', userId: user.id, expiresAt: new Date(now.getTime() + 60_000) });
    expect((await findSessionMember({ sessionId: 's1', now }))?.email).toBe('a@example.com');
    expect(
      await findSessionMember({ sessionId: 's1', now: new Date(now.getTime() + 61_000) }),
    ).toBeNull();
    expect(await findSessionMember({ sessionId: 'unknown', now })).toBeNull();
    await revokeSession({ sessionId: 's1' });
    expect(await findSessionMember({ sessionId: 's1', now })).toBeNull();
  });

  // An attempt as the sign-in provider makes it: recorded first, then finished with its outcome.
  async function attempt(
    email: string,
    client: string,
    now: Date,
    succeeded = false,
    device: string | null = null,
  ) {
    const started = await startSignInAttempt({ email, client, device, now });
    if (started.allowed) await finishSignInAttempt({ attemptId: started.attemptId, succeeded });
    return started;
  }
  const start = new Date('2026-01-01T12:00:00Z');
  const at = (ms: number) => new Date(start.getTime() + ms);

  it('locks an account for one client after 5 failures in 15 minutes, even for the right password', async () => {
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT_AND_CLIENT; i += 1) {
      expect((await attempt('a@example.com', 'c', at(i))).allowed).toBe(true);
    }
    const locked = await attempt('A@example.com', 'c', at(10), true);
    expect(locked).toEqual({
      allowed: false,
      retryAfterSeconds: Math.ceil((SIGN_IN_WINDOW_MS - 10) / 1000),
    });
    // Other accounts are unaffected, and so is the account from another client; refused
    // attempts do not prolong the lock.
    expect((await attempt('b@example.com', 'c', at(10))).allowed).toBe(true);
    expect((await attempt('a@example.com', 'fresh', at(11), true)).allowed).toBe(true);
    expect((await attempt('a@example.com', 'c', at(SIGN_IN_WINDOW_MS + 1), true)).allowed).toBe(
      true,
    );
  });

  it('locks an account sprayed from many clients after 10 failures an hour, even for the right password', async () => {
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i += 1) {
      expect((await attempt('a@example.com', `c${i}`, at(i))).allowed).toBe(true);
    }
    const locked = await attempt('a@example.com', 'fresh', at(20), true);
    expect(locked).toEqual({
      allowed: false,
      retryAfterSeconds: Math.ceil((ACCOUNT_WINDOW_MS - 20) / 1000),
    });
    expect((await attempt('b@example.com', 'fresh', at(20))).allowed).toBe(true);
    // Past the hour the oldest failure stops counting and one new attempt may go on.
    expect((await attempt('a@example.com', 'fresh', at(ACCOUNT_WINDOW_MS))).allowed).toBe(true);
    expect((await attempt('a@example.com', 'fresh', at(ACCOUNT_WINDOW_MS))).allowed).toBe(false);
  });

  it('lets the owner in from a known device while the account is sprayed, limited per device', async () => {
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i += 1) {
      await attempt('a@example.com', `c${i}`, at(i));
    }
    expect((await attempt('a@example.com', 'owner', at(20), true)).allowed).toBe(false);
    // The owner's browser, which signed in before, is not held by the account's lock...
    expect((await attempt('a@example.com', 'owner', at(21), true, 'device-1')).allowed).toBe(true);
    // ...but guesses from a device are limited per device, and do not lock the account.
    for (let i = 0; i < MAX_FAILURES_PER_DEVICE; i += 1) {
      expect((await attempt('a@example.com', 'x', at(30 + i), false, 'device-2')).allowed).toBe(
        true,
      );
    }
    expect((await attempt('a@example.com', 'x', at(40), true, 'device-2')).allowed).toBe(false);
    expect((await attempt('a@example.com', 'x', at(41), true, 'device-1')).allowed).toBe(true);
  });

  it('lets exactly the limit of a burst of parallel guesses through, in every scope', async () => {
    const now = new Date('2026-01-01T12:00:00Z');
    const fromOne = await Promise.all(
      Array.from({ length: 12 }, () =>
        startSignInAttempt({ email: 'burst@example.com', client: 'c', now }),
      ),
    );
    expect(fromOne.filter((result) => result.allowed)).toHaveLength(
      MAX_FAILURES_PER_ACCOUNT_AND_CLIENT,
    );
    const fromMany = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        startSignInAttempt({ email: 'spray@example.com', client: `c${i}`, now }),
      ),
    );
    expect(fromMany.filter((result) => result.allowed)).toHaveLength(MAX_FAILURES_PER_ACCOUNT);
    const acrossAccounts = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        startSignInAttempt({ email: `user${i}@example.com`, client: 'd', now }),
      ),
    );
    expect(acrossAccounts.filter((result) => result.allowed)).toHaveLength(MAX_FAILURES_PER_CLIENT);
  });

  it('locks a client after 20 failures across accounts; a success resets only the account', async () => {
    const now = new Date('2026-01-01T12:00:00Z');
    const later = new Date(now.getTime() + 1000);
    await attempt('a@example.com', 'c', now);
    await attempt('a@example.com', 'c', new Date(now.getTime() + 1), true);
    for (let i = 0; i < MAX_FAILURES_PER_CLIENT - 2; i += 1) {
      await attempt(`user${i}@example.com`, 'c', now);
    }
    expect((await attempt('z@example.com', 'c', now)).allowed).toBe(true);
    expect((await attempt('new@example.com', 'c', later)).allowed).toBe(false);
    expect((await attempt('a@example.com', 'c', later)).allowed).toBe(false);
    expect((await attempt('new@example.com', 'd', later)).allowed).toBe(true);
    // The account's failure before its success no longer counts: 4 more still leave it open.
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT_AND_CLIENT - 1; i += 1) {
      await attempt('a@example.com', 'd', new Date(now.getTime() + 2));
    }
    expect((await attempt('a@example.com', 'd', later, true)).allowed).toBe(true);
  });

  it("an owner's unlock lets the account sign in again; the client's own count stays", async () => {
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i += 1) {
      await attempt('a@example.com', `c${i % 2}`, at(i));
    }
    expect((await attempt('a@example.com', 'owner', at(20), true)).allowed).toBe(false);
    await unlockSignIn({ email: 'A@example.com', at: at(21) });
    expect((await attempt('a@example.com', 'owner', at(22), true)).allowed).toBe(true);
    // The clients that made the failures are still counted: 5 failures each, locked for that
    // account no more, but 15 more on others lock the client.
    for (let i = 0; i < MAX_FAILURES_PER_CLIENT - 5; i += 1) {
      await attempt(`user${i}@example.com`, 'c0', at(30));
    }
    expect((await attempt('b@example.com', 'c0', at(40))).allowed).toBe(false);
    expect((await attempt('b@example.com', 'c2', at(40))).allowed).toBe(true);
  });
});

describe('password hashing', () => {
  it('hashes with argon2id and verifies only the right password', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(hash, 'correct horse battery staple')).toBe(true);
    expect(await verifyPassword(hash, 'Correct horse battery staple')).toBe(false);
    expect(await verifyPassword('not a hash', 'anything')).toBe(false);
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '@/lib/auth/password';
import {
  checkSignInThrottle,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_CLIENT,
  recordSignInResult,
  SIGN_IN_WINDOW_MS,
} from '@/lib/auth/throttle';
import type { DatabaseHandle } from '@/lib/db/client';
import {
  countUsers,
  createFirstUser,
  createSession,
  findSessionUser,
  findUserByEmail,
  revokeSession,
  upsertSsoUser,
} from '@/lib/db/queries';
import { databaseTargets, useDatabase } from '../support/database';

describe.each(databaseTargets)('data layer on $name', ({ target }) => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await useDatabase(await target());
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(async () => {
    await handle.db.execute(sql`truncate users, sessions, sign_in_attempts cascade`);
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

  it('links a company SSO sign-in to the account with the same email', async () => {
    const first = await createFirstUser({ name: 'A', email: 'a@example.com', passwordHash: 'x' });
    const sso = await upsertSsoUser({ email: 'A@example.com', name: 'A from SSO' });
    expect(sso.id).toBe(first?.id);
    const fresh = await upsertSsoUser({ email: 'b@example.com', name: 'B' });
    expect(fresh.id).not.toBe(first?.id);
    expect(await countUsers()).toBe(2);
  });

  it('keeps a session live until it expires or is revoked', async () => {
    const user = await createFirstUser({ name: 'A', email: 'a@example.com', passwordHash: 'x' });
    if (!user) throw new Error('no user');
    const now = new Date();
    await createSession({ id: 's1', userId: user.id, expiresAt: new Date(now.getTime() + 60_000) });
    expect((await findSessionUser({ sessionId: 's1', now }))?.email).toBe('a@example.com');
    expect(
      await findSessionUser({ sessionId: 's1', now: new Date(now.getTime() + 61_000) }),
    ).toBeNull();
    expect(await findSessionUser({ sessionId: 'unknown', now })).toBeNull();
    await revokeSession({ sessionId: 's1' });
    expect(await findSessionUser({ sessionId: 's1', now })).toBeNull();
  });

  it('locks an account after 5 failures in 15 minutes, even for the right password', async () => {
    const start = new Date('2026-01-01T12:00:00Z');
    const at = (ms: number) => new Date(start.getTime() + ms);
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i += 1) {
      expect(
        (await checkSignInThrottle({ email: 'a@example.com', client: `c${i}`, now: at(i) }))
          .allowed,
      ).toBe(true);
      await recordSignInResult({
        email: 'a@example.com',
        client: `c${i}`,
        succeeded: false,
        now: at(i),
      });
    }
    const locked = await checkSignInThrottle({
      email: 'A@example.com',
      client: 'fresh',
      now: at(10),
    });
    expect(locked).toEqual({
      allowed: false,
      retryAfterSeconds: Math.ceil((SIGN_IN_WINDOW_MS - 10) / 1000),
    });
    // Other accounts are unaffected.
    expect(
      (await checkSignInThrottle({ email: 'b@example.com', client: 'fresh', now: at(10) })).allowed,
    ).toBe(true);
    // The lock lifts when the oldest failure leaves the window.
    expect(
      (
        await checkSignInThrottle({
          email: 'a@example.com',
          client: 'fresh',
          now: at(SIGN_IN_WINDOW_MS + 1),
        })
      ).allowed,
    ).toBe(true);
  });

  it('locks a client after 20 failures across accounts; a success resets only the account', async () => {
    const now = new Date('2026-01-01T12:00:00Z');
    const later = new Date(now.getTime() + 1000);
    const check = (email: string, client: string) =>
      checkSignInThrottle({ email, client, now: later }).then((verdict) => verdict.allowed);
    await recordSignInResult({ email: 'a@example.com', client: 'c', succeeded: false, now });
    await recordSignInResult({
      email: 'a@example.com',
      client: 'c',
      succeeded: true,
      now: new Date(now.getTime() + 1),
    });
    for (let i = 0; i < MAX_FAILURES_PER_CLIENT - 2; i += 1) {
      await recordSignInResult({
        email: `user${i}@example.com`,
        client: 'c',
        succeeded: false,
        now,
      });
    }
    expect(await check('new@example.com', 'c')).toBe(true);
    await recordSignInResult({ email: 'z@example.com', client: 'c', succeeded: false, now });
    expect(await check('new@example.com', 'c')).toBe(false);
    expect(await check('a@example.com', 'c')).toBe(false);
    expect(await check('new@example.com', 'd')).toBe(true);
    // The account's failure before its success no longer counts: 4 more still leave it open.
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT - 1; i += 1) {
      await recordSignInResult({
        email: 'a@example.com',
        client: 'd',
        succeeded: false,
        now: new Date(now.getTime() + 2),
      });
    }
    expect(await check('a@example.com', 'd')).toBe(true);
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

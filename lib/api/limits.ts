import 'server-only';
import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { apiIdempotency, apiRateWindows } from '@/lib/db/schema';

/**
 * What keeps API writes safe and keys in bounds, kept in the database so every instance shares
 * it (PGlite and PostgreSQL alike, which no rate-limit library covers both of): a request budget
 * per key per minute, and each write's first answer by its `Idempotency-Key` for 24 hours.
 */

/** Requests a key may make a minute. */
export const REQUESTS_PER_MINUTE = 120;
const WINDOW_MS = 60_000;

export type RateState = {
  limit: number;
  remaining: number;
  resetSeconds: number;
  over: boolean;
  /** The first request over the limit this minute (the one worth an activity entry). */
  firstOver: boolean;
};

/** Counts a request against its key's minute, atomically; `over` once past the limit. */
export async function takeRequest(keyId: string, now = Date.now()): Promise<RateState> {
  const windowStart = new Date(Math.floor(now / WINDOW_MS) * WINDOW_MS);
  const db = await getDb();
  const [row] = await db
    .insert(apiRateWindows)
    .values({ keyId, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [apiRateWindows.keyId, apiRateWindows.windowStart],
      set: { count: sql`${apiRateWindows.count} + 1` },
    })
    .returning({ count: apiRateWindows.count });
  const count = row?.count ?? 1;
  // The minutes before this one are of no more use.
  if (count === 1) {
    await db
      .delete(apiRateWindows)
      .where(and(eq(apiRateWindows.keyId, keyId), lt(apiRateWindows.windowStart, windowStart)));
  }
  return {
    limit: REQUESTS_PER_MINUTE,
    remaining: Math.max(0, REQUESTS_PER_MINUTE - count),
    resetSeconds: Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now) / 1000)),
    over: count > REQUESTS_PER_MINUTE,
    firstOver: count === REQUESTS_PER_MINUTE + 1,
  };
}

/** How long a write's first answer is kept for its `Idempotency-Key`. */
export const IDEMPOTENCY_HOURS = 24;

export type Idempotent =
  /** The first time: go on, then `remember` the answer with this claim's token. */
  | { kind: 'first'; token: string }
  /** Answered before: this is the answer, sent again. */
  | { kind: 'replay'; status: number; body: unknown }
  /** The same key with another request. */
  | { kind: 'mismatch' }
  /** The first request with this key is still being answered. */
  | { kind: 'in_flight' };

export const requestHash = (method: string, path: string, body: string) =>
  createHash('sha256').update(`${method}\n${path}\n${body}`).digest('hex');

/**
 * Claims an `Idempotency-Key` for this request (by its key and hash), or finds what it was
 * answered. A claim older than 24 hours is forgotten first; one still in flight is waited for a
 * few seconds, so two identical requests at once give one answer and one effect.
 */
export async function claimIdempotency(input: {
  keyId: string;
  idempotencyKey: string;
  hash: string;
}): Promise<Idempotent> {
  const db = await getDb();
  await db.delete(apiIdempotency).where(
    and(
      eq(apiIdempotency.keyId, input.keyId),
      eq(apiIdempotency.idempotencyKey, input.idempotencyKey),
      // Expired, or a first request that never got its answer (its process stopped).
      sql`(${apiIdempotency.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_HOURS})
          or (${apiIdempotency.status} is null and ${apiIdempotency.createdAt} < now() - interval '1 minute'))`,
    ),
  );
  const claimed = await db
    .insert(apiIdempotency)
    .values({
      keyId: input.keyId,
      idempotencyKey: input.idempotencyKey,
      requestHash: input.hash,
    })
    .onConflictDoNothing()
    .returning({ token: sql<string>`${apiIdempotency.createdAt}::text` });
  if (claimed[0]) return { kind: 'first', token: claimed[0].token };
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const [row] = await db
      .select()
      .from(apiIdempotency)
      .where(
        and(
          eq(apiIdempotency.keyId, input.keyId),
          eq(apiIdempotency.idempotencyKey, input.idempotencyKey),
        ),
      );
    if (!row) return claimIdempotency(input);
    if (row.requestHash !== input.hash) return { kind: 'mismatch' };
    if (row.status !== null) return { kind: 'replay', status: row.status, body: row.body };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { kind: 'in_flight' };
}

/**
 * Keeps a write's answer for its key, if the claim is still this request's (one that outlived
 * its minute may have been taken over). A refusal (4xx: nothing was done) or a failure of ours
 * (5xx) is not kept: the key may be used again, with the request put right.
 */
export async function rememberAnswer(input: {
  keyId: string;
  idempotencyKey: string;
  token: string;
  status: number;
  body: unknown;
}): Promise<void> {
  const db = await getDb();
  const where = and(
    eq(apiIdempotency.keyId, input.keyId),
    eq(apiIdempotency.idempotencyKey, input.idempotencyKey),
    sql`${apiIdempotency.createdAt} = ${input.token}::timestamptz`,
  );
  if (input.status >= 400) {
    await db.delete(apiIdempotency).where(where);
    return;
  }
  await db
    .update(apiIdempotency)
    .set({ status: input.status, body: input.body as Record<string, unknown> })
    .where(where);
}

/**
 * Forgets what the API need not keep: answers kept for an Idempotency-Key past their 24 hours,
 * and request counts of minutes gone (the hourly prune job). How many rows went.
 */
export async function pruneApiRecords(): Promise<number> {
  const db = await getDb();
  const answers = await db
    .delete(apiIdempotency)
    .where(sql`${apiIdempotency.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_HOURS})`)
    .returning({ keyId: apiIdempotency.keyId });
  const windows = await db
    .delete(apiRateWindows)
    .where(sql`${apiRateWindows.windowStart} < now() - interval '1 hour'`)
    .returning({ keyId: apiRateWindows.keyId });
  return answers.length + windows.length;
}

import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { getDb, rowsOf } from './client';
import { serviceBudget } from './schema';

/**
 * The data layer of the one call budget (lib/thermostat-api/budget.ts): every instance takes
 * its calls here, one at a time under a transaction-scoped advisory lock, from sliding windows
 * over the log of calls made. A sliding window never holds more than its cap in any interval of
 * its length, so whatever windows the service counts in (fixed, aligned to its own clock), none
 * of them sees more either.
 */

export type CallKind = 'api' | 'token';
export type CallWindow = { seconds: number; cap: number };
export type Take =
  | { granted: true }
  | {
      granted: false;
      waitMs: number;
      reason: string;
      /** The service's own "not before", exactly as it was recorded, when that is the reason. */
      until?: Date;
    };

const BUDGET_LOCK = 727_004;
// Rows older than the longest window (token calls: two hours) are no longer counted.
const KEEP_SECONDS = 2 * 3600 + 60;

type Counts = { now: Date; used: number[]; org: number };

/**
 * Takes `count` calls of `kind` for `orgId` if every window has room for them at this priority
 * (`windows`: each window's length and the cap this caller may fill it to; `orgCap`: how many
 * of the minute one organisation may hold), else says how long until it would.
 */
export async function takeCalls(input: {
  kind: CallKind;
  orgId: string | null;
  priority: number;
  count: number;
  windows: CallWindow[];
  orgCap?: { seconds: number; cap: number };
}): Promise<Take> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${BUDGET_LOCK})`);
    const longest = Math.max(...input.windows.map((window) => window.seconds));
    const filters = input.windows.map(
      (window) =>
        sql`count(*) filter (where at > n.now - make_interval(secs => ${window.seconds}))::int`,
    );
    const orgWindow = input.orgCap?.seconds ?? 60;
    const result = await tx.execute(sql`
      with n as (select clock_timestamp() as now)
      select n.now as now,
        array[${sql.join(filters, sql`, `)}] as used,
        count(*) filter (
          where org_id = ${input.orgId} and at > n.now - make_interval(secs => ${orgWindow})
        )::int as org
      from n left join service_calls c
        on c.kind = ${input.kind} and c.at > n.now - make_interval(secs => ${longest})
      group by n.now`);
    const counts = readCounts(rowsOf(result)[0]);

    const refusals: { waitMs: number; reason: string; until?: Date }[] = [];
    if (input.kind === 'api') {
      const [state] = await tx.select().from(serviceBudget).where(eq(serviceBudget.id, 1));
      if (state?.holdUntil && state.holdUntil > counts.now) {
        refusals.push({
          waitMs: state.holdUntil.getTime() - counts.now.getTime(),
          reason: 'the service asked to wait',
          until: state.holdUntil,
        });
      }
      for (const [remaining, at, seconds] of [
        [state?.minuteRemaining, state?.minuteRemainingAt, 60],
        [state?.hourRemaining, state?.hourRemainingAt, 3600],
      ] as const) {
        if (remaining == null || !at || at.getTime() + seconds * 1000 <= counts.now.getTime())
          continue;
        const since = await countSince(tx, input.kind, at);
        if (since + input.count > remaining) {
          refusals.push({
            waitMs: at.getTime() + seconds * 1000 - counts.now.getTime(),
            reason: 'the service said its window is nearly used up',
          });
        }
      }
    }
    for (const [index, window] of input.windows.entries()) {
      const used = counts.used[index] ?? 0;
      if (used + input.count <= window.cap) continue;
      refusals.push({
        waitMs: await waitForRoom(tx, input.kind, window, used, input.count, counts.now),
        reason: `${window.cap} calls per ${window.seconds} s`,
      });
    }
    if (input.orgCap && input.orgId && counts.org + input.count > input.orgCap.cap) {
      refusals.push({ waitMs: 250, reason: 'this organisation’s share' });
    }
    if (refusals.length > 0) {
      const longestWait = refusals.reduce((a, b) => (b.waitMs > a.waitMs ? b : a));
      return {
        granted: false,
        waitMs: Math.max(5, Math.ceil(longestWait.waitMs)),
        reason: longestWait.reason,
        until: longestWait.until,
      };
    }

    await tx.execute(sql`
      insert into service_calls (kind, org_id, priority)
      select ${input.kind}, ${input.orgId}, ${input.priority} from generate_series(1, ${input.count})`);
    // Now and then, forget calls no window counts any more.
    if (Math.random() < 0.01) {
      await tx.execute(sql`
        delete from service_calls where at < clock_timestamp() - make_interval(secs => ${KEEP_SECONDS})`);
    }
    return { granted: true };
  });
}

type Tx = Parameters<Parameters<Awaited<ReturnType<typeof getDb>>['transaction']>[0]>[0];

function readCounts(row: unknown): Counts {
  const value = row as {
    now: string | Date;
    used: (number | string)[] | string;
    org: number | string;
  };
  const used =
    typeof value.used === 'string'
      ? value.used.replace(/[{}]/g, '').split(',').map(Number)
      : value.used.map(Number);
  return { now: new Date(value.now), used, org: Number(value.org) };
}

async function countSince(tx: Tx, kind: CallKind, since: Date): Promise<number> {
  const result = await tx.execute(
    sql`select count(*)::int as n from service_calls where kind = ${kind} and at > ${since.toISOString()}::timestamptz`,
  );
  return Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
}

/** How long until `count` more calls fit in the window: until enough of the oldest leave it. */
async function waitForRoom(
  tx: Tx,
  kind: CallKind,
  window: CallWindow,
  used: number,
  count: number,
  now: Date,
): Promise<number> {
  const leaving = used + count - window.cap;
  const result = await tx.execute(sql`
    select at from service_calls
    where kind = ${kind} and at > ${now.toISOString()}::timestamptz - make_interval(secs => ${window.seconds})
    order by at offset ${Math.max(0, leaving - 1)} limit 1`);
  const row = rowsOf<{ at: string | Date }>(result)[0];
  if (!row) return 50;
  return new Date(row.at).getTime() + window.seconds * 1000 - now.getTime();
}

/**
 * Records what the service said: a Retry-After (no call from any instance before then) and,
 * when lower than expected, how many calls it had left in its minute and hour.
 */
export async function recordServiceLimits(input: {
  holdUntil?: Date;
  minuteRemaining?: number;
  hourRemaining?: number;
}): Promise<void> {
  const db = await getDb();
  const now = sql`clock_timestamp()`;
  await db
    .update(serviceBudget)
    .set({
      ...(input.holdUntil
        ? {
            holdUntil: sql`greatest(coalesce(${serviceBudget.holdUntil}, ${now}), ${input.holdUntil.toISOString()}::timestamptz)`,
          }
        : {}),
      ...(input.minuteRemaining !== undefined
        ? { minuteRemaining: input.minuteRemaining, minuteRemainingAt: now }
        : {}),
      ...(input.hourRemaining !== undefined
        ? { hourRemaining: input.hourRemaining, hourRemainingAt: now }
        : {}),
    })
    .where(eq(serviceBudget.id, 1));
}

/** When the service last asked every instance to wait until (null when it has not, or it passed). */
export async function findServiceHold(): Promise<Date | null> {
  const db = await getDb();
  const [state] = await db.select().from(serviceBudget).where(eq(serviceBudget.id, 1));
  return state?.holdUntil && state.holdUntil.getTime() > Date.now() ? state.holdUntil : null;
}

/** Calls taken in the last `seconds` by kind and priority, for the health page and the bench. */
export async function countRecentCalls(
  seconds: number,
): Promise<{ kind: CallKind; priority: number; calls: number }[]> {
  const db = await getDb();
  const result = await db.execute(sql`
    select kind, priority, count(*)::int as calls from service_calls
    where at > clock_timestamp() - make_interval(secs => ${seconds})
    group by kind, priority order by kind, priority`);
  return rowsOf<{ kind: CallKind; priority: number; calls: number | string }>(result).map(
    (row) => ({
      kind: row.kind,
      priority: Number(row.priority),
      calls: Number(row.calls),
    }),
  );
}

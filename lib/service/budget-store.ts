import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/lib/db/client';
import { serviceBudget, serviceDemand } from '@/lib/db/schema';

/**
 * The data layer of the one call budget (lib/service/budget.ts): every instance takes
 * its calls here, one at a time under a transaction-scoped advisory lock, from sliding windows
 * over the log of calls made. A call holds its place in a window from the moment it is taken
 * until it has ended (endCalls) and for the window's length after: it reaches the service
 * somewhere in between, so a call taken in one second and delayed into the next (a slow token,
 * a busy process or network) is still counted beside that next second's calls. No interval of
 * a window's length then sees more calls reach the service than its cap, so whatever windows the
 * service counts in (fixed, aligned to its own clock), none of them sees more either.
 */

export type CallKind = 'api' | 'token';
export type CallWindow = { seconds: number; cap: number };
export type Take =
  | { granted: true; ids: number[] }
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
/**
 * A call not ended after this long is counted as ended then: its process died mid-call. Longer
 * than any call lasts (the longest deadline the configuration allows, 120 s, and a token's wait).
 */
const IN_FLIGHT_MAX_SECONDS = 300;
/** When a call ended: when it said so, or, while it has not, the moment it is taken as ended. */
const callEnd = sql.raw(
  `coalesce(c.ended_at, c.at + make_interval(secs => ${IN_FLIGHT_MAX_SECONDS}))`,
);

type Counts = { now: Date; used: number[] };

/**
 * Background work shared fairly among organisations: calls at `fromPriority` or lower (a higher
 * number) in the last `seconds`, of which one organisation may hold at most `cap` divided by the
 * organisations that made such calls or wanted to. Alone, an organisation may use all of it;
 * when another's background work is refused, each is held to its share until the other's turn
 * comes, so one organisation's bulk run cannot starve another's readings.
 */
export type FairShare = { fromPriority: number; seconds: number; cap: number };

/**
 * Takes `count` calls of `kind` for `orgId` if every window has room for them at this priority
 * (`windows`: each window's length and the cap this caller may fill it to) and, for background
 * work, within the organisation's fair share; else says how long until it would.
 */
export async function takeCalls(input: {
  kind: CallKind;
  orgId: string | null;
  priority: number;
  count: number;
  windows: CallWindow[];
  fairShare?: FairShare;
}): Promise<Take> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${BUDGET_LOCK})`);
    const longest = Math.max(...input.windows.map((window) => window.seconds));
    const filters = input.windows.map(
      (window) =>
        sql`count(*) filter (where ${callEnd} > n.now - make_interval(secs => ${window.seconds}))::int`,
    );
    const result = await tx.execute(sql`
      with n as (select clock_timestamp() as now)
      select n.now as now,
        array[${sql.join(filters, sql`, `)}] as used
      from n left join service_calls c
        on c.kind = ${input.kind}
        and c.at > n.now - make_interval(secs => ${longest + IN_FLIGHT_MAX_SECONDS})
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
    const fair = input.fairShare && input.orgId ? { ...input.fairShare, orgId: input.orgId } : null;
    if (fair) {
      const share = await fairShareOf(tx, fair);
      if (share.orgs > 1 && share.mine + input.count > Math.ceil(fair.cap / share.orgs)) {
        refusals.push({ waitMs: 1000, reason: 'this organisation’s fair share' });
      }
    }
    if (refusals.length > 0) {
      // Background work that waits says so, for the fair share of the others' next calls.
      if (fair) {
        await tx
          .insert(serviceDemand)
          .values({ orgId: fair.orgId, wantedAt: counts.now })
          .onConflictDoUpdate({ target: serviceDemand.orgId, set: { wantedAt: counts.now } });
      }
      const longestWait = refusals.reduce((a, b) => (b.waitMs > a.waitMs ? b : a));
      return {
        granted: false,
        waitMs: Math.max(5, Math.ceil(longestWait.waitMs)),
        reason: longestWait.reason,
        until: longestWait.until,
      };
    }

    const inserted = await tx.execute(sql`
      insert into service_calls (kind, org_id, priority)
      select ${input.kind}, ${input.orgId}, ${input.priority} from generate_series(1, ${input.count})
      returning id`);
    // Now and then, forget calls no window counts any more.
    if (Math.random() < 0.01) {
      await tx.execute(sql`
        delete from service_calls where at < clock_timestamp() - make_interval(secs => ${KEEP_SECONDS})`);
    }
    return {
      granted: true,
      ids: rowsOf<{ id: number | string }>(inserted).map((r) => Number(r.id)),
    };
  });
}

/** Says that calls taken with takeCalls have ended: their windows count them from here. */
export async function endCalls(ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const db = await getDb();
  await db.execute(sql`
    update service_calls set ended_at = clock_timestamp()
    where id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}) and ended_at is null`);
}

type Tx = Parameters<Parameters<Awaited<ReturnType<typeof getDb>>['transaction']>[0]>[0];

function readCounts(row: unknown): Counts {
  const value = row as { now: string | Date; used: (number | string)[] | string };
  const used =
    typeof value.used === 'string'
      ? value.used.replace(/[{}]/g, '').split(',').map(Number)
      : value.used.map(Number);
  return { now: new Date(value.now), used };
}

/** How many organisations share background calls now, and how many of them are this one's. */
async function fairShareOf(
  tx: Tx,
  fair: FairShare & { orgId: string },
): Promise<{ orgs: number; mine: number }> {
  const since = sql`clock_timestamp() - make_interval(secs => ${fair.seconds})`;
  const result = await tx.execute(sql`
    with recent as (
      select org_id from service_calls
      where kind = 'api' and priority >= ${fair.fromPriority} and org_id is not null and at > ${since}
    ), active as (
      select org_id from recent
      union select org_id from service_demand where wanted_at > ${since}
      union select ${fair.orgId}::uuid
    )
    select (select count(*) from active)::int as orgs,
      (select count(*) from recent where org_id = ${fair.orgId}::uuid)::int as mine`);
  const row = rowsOf<{ orgs: number | string; mine: number | string }>(result)[0];
  return { orgs: Number(row?.orgs ?? 1), mine: Number(row?.mine ?? 0) };
}

async function countSince(tx: Tx, kind: CallKind, since: Date): Promise<number> {
  const result = await tx.execute(
    sql`select count(*)::int as n from service_calls where kind = ${kind} and at > ${since.toISOString()}::timestamptz`,
  );
  return Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
}

/**
 * How long until `count` more calls fit in the window: until enough of those counted leave it,
 * the first ended a window's length after their end. One still in flight has no end yet: asked
 * again shortly.
 */
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
    select ${callEnd} as ends, c.ended_at is null and ${callEnd} > clock_timestamp() as in_flight
    from service_calls c
    where c.kind = ${kind}
      and c.at > ${now.toISOString()}::timestamptz - make_interval(secs => ${window.seconds + IN_FLIGHT_MAX_SECONDS})
      and ${callEnd} > ${now.toISOString()}::timestamptz - make_interval(secs => ${window.seconds})
    order by c.ended_at is null, ends offset ${Math.max(0, leaving - 1)} limit 1`);
  const row = rowsOf<{ ends: string | Date; in_flight: boolean }>(result)[0];
  if (!row || row.in_flight) return 50;
  return new Date(row.ends).getTime() + window.seconds * 1000 - now.getTime();
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

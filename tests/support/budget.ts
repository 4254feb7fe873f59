import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '@/lib/db/client';
import { budgetWindows, type Priority } from '@/lib/thermostat-api/budget-windows';

/** Scaled-down service limits for budget tests: a minute's share is a few dozen calls. */
export const SMALL_MINUTE = { perSecond: 50, perMinute: 100, perHour: 10_000 };

/**
 * Spends the minute window of the call budget up to `priority`'s share under SMALL_MINUTE, with
 * calls that ended `endedSecondsAgo` seconds ago: calls at that priority then wait about
 * `60 - endedSecondsAgo` seconds for a slot, while higher priorities still find room.
 */
export async function spendMinuteShare(
  handle: DatabaseHandle,
  priority: Priority,
  endedSecondsAgo: number,
): Promise<void> {
  const [, minute] = budgetWindows(
    { ...SMALL_MINUTE, tokenPerWindow: 120, tokenWindowSeconds: 7200 },
    priority,
  );
  await handle.db.execute(sql`
    insert into service_calls (at, ended_at, kind, org_id, priority)
    select clock_timestamp() - make_interval(secs => ${endedSecondsAgo + 1}),
      clock_timestamp() - make_interval(secs => ${endedSecondsAgo}), 'api', null, 3
    from generate_series(1, ${minute?.cap ?? 0})`);
}

import 'server-only';
import pLimit from 'p-limit';
import { listDueReminders } from '@/lib/attention/store';
import { getEnv } from '@/lib/platform/env';
import { freshnessTargetMs } from '@/lib/readings/read';
import { reminderOf, saveReminder, saveReminderFailure } from '@/lib/readings/reminders';
import { budgetWindows } from '@/lib/service/budget';
import { ServiceError } from '@/lib/service/errors';
import { getAlertSettings } from '@/lib/service/resources';

/**
 * Maintenance reminders, read on a slow cycle: each thermostat's alert settings once a day, at
 * background priority, a few a minute. The date only moves when someone records maintenance, so
 * a day late is soon enough; 1,500 thermostats then cost about 63 calls an hour, 0.6 % of the
 * service's 10,000. A new portfolio is read at a few a minute too (at most 2 % of the hourly
 * budget), never in a burst that would hold up the poller or a page.
 */

export const READ_EVERY_MS = 24 * 60 * 60_000;
/** A failed read (offline, busy, not found) is tried again after an hour. */
export const RETRY_EVERY_MS = 60 * 60_000;
/** The most of the hourly background budget these reads may take while catching up. */
const SHARE_OF_HOUR = 0.02;

/** How many reminders one minute's round may read. */
export function remindersPerMinute(): number {
  const hourCap = budgetWindows(getEnv().SERVICE_RATE_LIMIT, 'background')[2]?.cap ?? 0;
  return Math.max(1, Math.floor((hourCap * SHARE_OF_HOUR) / 60));
}

/**
 * One minute's round: reads the reminders that are due, up to a minute's share. Nothing while
 * background reading is off (READINGS_TARGET_MINUTES=0: pages read only what they show).
 */
export async function readDueReminders(
  now = new Date(),
): Promise<{ due: number; read: number; failed: number }> {
  if (freshnessTargetMs() === 0) return { due: 0, read: 0, failed: 0 };
  const due = await listDueReminders({
    now,
    readEvery: READ_EVERY_MS,
    retryEvery: RETRY_EVERY_MS,
    limit: remindersPerMinute(),
  });
  const limit = pLimit(2);
  const results = await Promise.all(
    due.map((reminder) =>
      limit(async () => {
        try {
          const settings = await getAlertSettings({ ...reminder, priority: 'background' });
          await saveReminder({ ...reminder, ...reminderOf(settings) });
          return true;
        } catch (caught) {
          const kind = caught instanceof ServiceError ? caught.kind : 'unavailable';
          await saveReminderFailure({ ...reminder, failure: kind });
          return false;
        }
      }),
    ),
  );
  const failed = results.filter((ok) => !ok).length;
  return { due: due.length, read: results.length - failed, failed };
}

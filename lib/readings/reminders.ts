import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import type { ThermostatKey } from '@/lib/db/scope';
import { logWarning } from '@/lib/platform/log';
import type { AlertSettings } from '@/lib/service/schemas';

/**
 * A thermostat's maintenance reminder as the service last said it (its alert settings' next
 * reminder date), kept like a reading: by the daily read of Needs attention
 * (lib/attention/maintenance.ts) and by every write through Setpoint that answers with alert
 * settings, so the item clears at once.
 */

/** What the store keeps of a reminder, from alert settings as the service gave them. */
export function reminderOf(settings: AlertSettings): {
  enabled: boolean;
  nextReminderDate: string | null;
} {
  const reminder = settings.hvacMaintenanceReminder;
  return {
    enabled: reminder.enabled,
    nextReminderDate: reminder.enabled ? (reminder.nextReminderDate ?? null) : null,
  };
}

/**
 * Tells the store what a write through Setpoint made of a thermostat's reminder, so Needs
 * attention shows it at once rather than after the next daily read: the alert settings the
 * service answered (or that were read back after the write), or, where neither came, a read
 * first thing in the next round. Never throws over the write: the daily read puts it right.
 */
export async function rememberReminder(input: {
  orgId: string;
  thermostatId: string;
  settings: AlertSettings | null;
}): Promise<void> {
  const key = { orgId: input.orgId, thermostatId: input.thermostatId };
  try {
    if (input.settings) await saveReminder({ ...key, ...reminderOf(input.settings) });
    else await markReminderUnread(key);
  } catch (error) {
    logWarning('maintenance reminder: not kept after a write', String(error));
  }
}

/** Keeps what the service said of a thermostat's maintenance reminder. */
export async function saveReminder(input: {
  orgId: string;
  thermostatId: string;
  enabled: boolean;
  nextReminderDate: string | null;
  at?: Date;
}): Promise<void> {
  const db = await getDb();
  const at = (input.at ?? new Date()).toISOString();
  // Through the thermostats table: one that left the portfolio meanwhile gets no row.
  await db.execute(sql`
    insert into maintenance_reminders
      (org_id, thermostat_id, enabled, next_reminder_date, read_at, tried_at, failure)
    select org_id, thermostat_id, ${input.enabled}, ${input.nextReminderDate}::date,
      ${at}::timestamptz, ${at}::timestamptz, null
    from thermostats where org_id = ${input.orgId}::uuid and thermostat_id = ${input.thermostatId}
    on conflict (org_id, thermostat_id) do update
      set enabled = excluded.enabled, next_reminder_date = excluded.next_reminder_date,
        read_at = excluded.read_at, tried_at = excluded.tried_at, failure = null`);
}

/** Records a failed read: the last good values stay, with why the newer read failed. */
export async function saveReminderFailure(
  input: ThermostatKey & { failure: string; at?: Date },
): Promise<void> {
  const db = await getDb();
  const at = (input.at ?? new Date()).toISOString();
  await db.execute(sql`
    insert into maintenance_reminders (org_id, thermostat_id, tried_at, failure)
    select org_id, thermostat_id, ${at}::timestamptz, ${input.failure}
    from thermostats where org_id = ${input.orgId}::uuid and thermostat_id = ${input.thermostatId}
    on conflict (org_id, thermostat_id) do update
      set tried_at = excluded.tried_at, failure = excluded.failure`);
}

/**
 * After a write whose answer did not say what the reminder is now: the last values stay, and the
 * reminder is read again first thing (as if last tried long ago), not a day later.
 */
export async function markReminderUnread(input: ThermostatKey): Promise<void> {
  const db = await getDb();
  await db.execute(sql`
    update maintenance_reminders set tried_at = 'epoch'::timestamptz
    where org_id = ${input.orgId}::uuid and thermostat_id = ${input.thermostatId}`);
}

import 'server-only';
import { formatDate } from '@/lib/platform/time-format';
import { z } from 'zod';
import { serviceFailure } from '@/lib/access/actions';
import { logActivity } from '@/lib/activity/sink';
import { can, refusal } from '@/lib/auth/permissions';
import type { Member } from '@/lib/auth/store';
import type { ScopedThermostat } from '@/lib/portfolio/store';
import { type FormState, fieldErrorsOf } from '@/lib/platform/forms';
import type { NoticeParams } from '@/lib/platform/notice';
import { type AlertChanges, isCalendarDate } from '@/lib/settings/alerts';
import { labelOf } from '@/lib/settings/current';
import { getAlertSettings } from '@/lib/service/resources';
import type { AlertSettings } from '@/lib/service/schemas';
import { dateIn } from './conditions';
import { rememberReminder, reminderOf } from '@/lib/readings/reminders';
import { writeAlertChanges } from './write-alerts';

/**
 * "Record maintenance done" on a maintenance item of Needs attention: the thermostat's last HVAC
 * maintenance date set at the service (the day given, today in the building's zone by default),
 * recorded in the activity log with what it replaced (so it can be undone like any change of
 * alert settings), and told to the store, so the item goes at once. Only for members who may
 * change the thermostat: checked here, before any call, whatever the page offered.
 */

export type MaintenanceField = 'date';
export type MaintenanceState = FormState<MaintenanceField>;

const ENTER_DATE = 'Enter the day the maintenance was done.';

/** The form's one field: a calendar day, not after today in the building's zone. */
export function maintenanceDoneSchema(today: string) {
  return z.object({
    date: z
      .string({ error: ENTER_DATE })
      .trim()
      .superRefine((value, context) => {
        const problem =
          value === ''
            ? ENTER_DATE
            : !isCalendarDate(value)
              ? 'Enter a real date (YYYY-MM-DD).'
              : value > today
                ? 'Maintenance cannot be recorded for a day after today.'
                : null;
        if (problem) context.addIssue({ code: 'custom', message: problem });
      }),
  });
}

export type MaintenanceRecorded = {
  ok: true;
  /** The day recorded (`YYYY-MM-DD`). */
  date: string;
  /** When the service says maintenance is next due, where it said. */
  nextReminderDate: string | null;
  /** The thermostat already had this day as its last maintenance: nothing was sent. */
  unchanged: boolean;
  /** Its answer was lost, and reading it back showed the change applied. */
  readBack: boolean;
};

/**
 * What Needs attention says once maintenance was recorded (the `maintenanceRecorded` notice):
 * on which thermostat, and when the next is due as the service now says.
 */
export function recordedNotice(
  thermostat: Pick<ScopedThermostat, 'unitLabel' | 'thermostatId'>,
  recorded: Pick<MaintenanceRecorded, 'nextReminderDate'>,
): NoticeParams<'maintenanceRecorded'> {
  const next = recorded.nextReminderDate;
  return { label: labelOf(thermostat), ...(next ? { nextDue: formatDate(next) } : {}) };
}

const fieldOf = (path: string): MaintenanceField | null =>
  path === 'hvacMaintenanceReminder.lastMaintenanceDate' ? 'date' : null;

const refused = (state: MaintenanceState) => ({ ok: false as const, state });

export async function recordMaintenanceDone(input: {
  member: Member;
  thermostat: ScopedThermostat;
  /** The form's value: anything, checked here. */
  date: unknown;
  now?: Date;
}): Promise<MaintenanceRecorded | { ok: false; state: MaintenanceState }> {
  const { member, thermostat } = input;
  if (!can(member, 'change_thermostat', thermostat)) {
    return refused({ status: 'error', message: refusal(member.role, 'change_thermostat') });
  }
  const today = dateIn(thermostat.building?.timeZone ?? 'UTC', input.now ?? new Date());
  const typed = typeof input.date === 'string' ? input.date : '';
  const parsed = maintenanceDoneSchema(today).safeParse({ date: input.date });
  if (!parsed.success) {
    return refused({
      status: 'error',
      message: 'Check the date; nothing was sent.',
      fieldErrors: fieldErrorsOf<MaintenanceField>(parsed.error),
      values: { date: typed },
    });
  }
  const { date } = parsed.data;
  const values = { date };
  const on = { orgId: member.orgId, thermostatId: thermostat.thermostatId };
  const label = labelOf(thermostat);
  const where = { thermostatId: thermostat.thermostatId, buildingId: thermostat.buildingId };
  const day = formatDate(date);

  // What it replaces, for Undo, and whether anything is to change at all.
  let current: AlertSettings;
  try {
    current = await getAlertSettings(on);
  } catch (error) {
    await logActivity({
      actor: member,
      action: 'alert_settings.update',
      ...where,
      summary: `Failed to record HVAC maintenance done on ${label} (its alert settings could not be read)`,
      changes: { requested: { lastMaintenanceDate: date } },
      error,
    });
    return refused(serviceFailure<MaintenanceField>(error, { values }));
  }
  const last = current.hvacMaintenanceReminder.lastMaintenanceDate;
  if (last && isCalendarDate(last) && date < last) {
    return refused({
      status: 'error',
      message: 'Check the date; nothing was sent.',
      fieldErrors: {
        date: [`Its last maintenance on record is ${formatDate(last)}: enter that day or later.`],
      },
      values,
    });
  }
  if (last === date) {
    await rememberReminder({ ...on, settings: current });
    return {
      ok: true,
      date,
      nextReminderDate: reminderOf(current).nextReminderDate,
      unchanged: true,
      readBack: false,
    };
  }

  const changes: AlertChanges = { hvacMaintenanceReminder: { lastMaintenanceDate: date } };
  try {
    const { written, saved } = await writeAlertChanges({
      member,
      thermostat,
      current,
      changes,
      done: `Recorded HVAC maintenance done on ${label} (${day})`,
      asked: `record HVAC maintenance done on ${label} (${day})`,
    });
    return {
      ok: true,
      date,
      nextReminderDate: saved ? reminderOf(saved).nextReminderDate : null,
      unchanged: false,
      readBack: written.readBack,
    };
  } catch (error) {
    return refused(serviceFailure<MaintenanceField>(error, { values, fieldOf }));
  }
}

import 'server-only';
import { logWrite } from '@/lib/activity/sink';
import type { Member } from '@/lib/auth/store';
import type { ScopedThermostat } from '@/lib/portfolio/store';
import { rememberReminder } from '@/lib/readings/reminders';
import type { AlertChanges } from '@/lib/settings/alerts';
import { labelOf } from '@/lib/settings/current';
import type { Written } from '@/lib/service/confirm';
import { mayHaveApplied } from '@/lib/service/errors';
import { getAlertSettings, updateAlertSettings } from '@/lib/service/resources';
import type { AlertSettings } from '@/lib/service/schemas';
import { alertsUndo } from '@/lib/templates/undo/entries';

/**
 * A change of one thermostat's alert settings, written, as the alerts form and "Record
 * maintenance done" both make it: the call, its activity entry keeping what it replaced (so it
 * can be undone), and the maintenance reminder Needs attention reads, told at once rather than at
 * tomorrow's read. `saved` is what is in force, read back where the answer did not say (the next
 * reminder's date is the service's to work out), or null. A failed call is logged and thrown;
 * one that may have applied leaves the reminder to be read again in the next round.
 */
export async function writeAlertChanges(input: {
  member: Member;
  thermostat: ScopedThermostat;
  /** What it replaces, just read. */
  current: AlertSettings;
  changes: AlertChanges;
  /** How the activity log says it, done and asked (see `logWrite`). */
  done: string;
  asked: string;
}): Promise<{ written: Written<AlertSettings>; saved: AlertSettings | null }> {
  const { member, thermostat, current, changes, done, asked } = input;
  const on = { orgId: member.orgId, thermostatId: thermostat.thermostatId };
  const label = labelOf(thermostat);
  const what = {
    actor: member,
    action: 'alert_settings.update',
    thermostatId: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
    changes: { ...changes, ...alertsUndo({ label, before: current, changes }) } as Record<
      string,
      unknown
    >,
    done,
    asked,
  } as const;
  try {
    const written = await updateAlertSettings({ ...on, changes });
    await logWrite({ ...what, result: { written } });
    const saved = written.answer ?? (await getAlertSettings(on).catch(() => null));
    await rememberReminder({ ...on, settings: saved });
    return { written, saved };
  } catch (error) {
    await logWrite({ ...what, result: { error } });
    if (mayHaveApplied(error)) await rememberReminder({ ...on, settings: null });
    throw error;
  }
}

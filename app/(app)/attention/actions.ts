'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { openThermostat } from '@/lib/access/actions';
import { returnHref } from '@/lib/attention/query';
import {
  type MaintenanceState,
  recordedNotice,
  recordMaintenanceDone,
} from '@/lib/attention/record-maintenance';
import { withNotice } from '@/lib/platform/notice';

/**
 * "Record maintenance done" on a maintenance item: the thermostat's last maintenance date set at
 * the service, then back to the list as it was (filters and page), where the item has gone and a
 * notice says what was recorded. The thermostat and the page to return to are bound by the page.
 */
export async function recordMaintenance(
  thermostatId: string,
  returnTo: string,
  _previous: MaintenanceState,
  form: FormData,
): Promise<MaintenanceState> {
  const opened = await openThermostat(thermostatId);
  if (!opened.ok) return opened.state;
  const { member, thermostat } = opened;
  const result = await recordMaintenanceDone({ member, thermostat, date: form.get('date') });
  if (!result.ok) return result.state;
  revalidatePath('/attention');
  revalidatePath('/');
  revalidatePath(`/thermostats/${thermostat.thermostatId}/alerts`);
  redirect(
    withNotice(
      returnHref(returnTo),
      member,
      'maintenanceRecorded',
      recordedNotice(thermostat, result),
    ),
  );
}

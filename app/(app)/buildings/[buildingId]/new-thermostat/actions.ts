'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { openBuilding, serviceFailure } from '@/lib/access/actions';
import { logWrite } from '@/lib/activity/sink';
import { recordPendingMode } from '@/lib/attention/store';
import {
  NEW_THERMOSTAT_FIELDS,
  type NewThermostatField,
  newThermostatSchema,
} from '@/lib/portfolio/new-thermostat';
import { addThermostat } from '@/lib/portfolio/store';
import { type FormState, fieldErrorsOf } from '@/lib/platform/forms';
import { logWarning } from '@/lib/platform/log';
import { ServiceError } from '@/lib/service/errors';
import { createThermostat, type Written } from '@/lib/service/resources';
import type { ThermostatSummary } from '@/lib/service/schemas';

/** Creates a thermostat in the building at the service, and adds it to the portfolio. */
export async function createThermostatInBuilding(
  buildingId: string,
  _previous: FormState<NewThermostatField>,
  form: FormData,
): Promise<FormState<NewThermostatField>> {
  const opened = await openBuilding(buildingId);
  if (!opened.ok) return opened.state;
  const { member, building } = opened;

  // A file where text belongs fails the schema as it is, instead of becoming "[object File]".
  const posted = Object.fromEntries(NEW_THERMOSTAT_FIELDS.map((key) => [key, form.get(key) ?? '']));
  const raw = Object.fromEntries(
    NEW_THERMOSTAT_FIELDS.map((key) => {
      const value = form.get(key);
      return [key, typeof value === 'string' ? value : ''];
    }),
  );
  const parsed = newThermostatSchema.safeParse(posted);
  if (!parsed.success)
    return { status: 'error', fieldErrors: fieldErrorsOf(parsed.error), values: raw };
  const { name, thermostatId, hvacMode, isResidentMode } = parsed.data;
  const request = {
    isResidentMode: isResidentMode === 'on',
    name,
    hvacMode,
    ...(thermostatId ? { thermostatId } : {}),
  };

  const where = {
    actor: member,
    action: 'thermostat.create',
    buildingId: building.buildingId,
  } as const;
  const words = {
    done: `Created ${name} in ${building.name}`,
    asked: `create ${name} in ${building.name}`,
  };
  let written: Written<ThermostatSummary>;
  try {
    written = await createThermostat({
      orgId: member.orgId,
      buildingId: building.buildingId,
      thermostat: request,
    });
  } catch (error) {
    await logWrite({ ...where, ...words, changes: request, result: { error } });
    if (error instanceof ServiceError && error.kind === 'unconfirmed') {
      return {
        status: 'error',
        message: `The service did not confirm that it created ${name}${thermostatId ? ', and Setpoint could not read it back' : ', and without an id Setpoint cannot look for it'}: it may have been created. Look for it at the service before creating it again; if it is there, add it by id.`,
        values: raw,
      };
    }
    return serviceFailure(error, {
      values: raw,
      fieldOf: (path) =>
        (NEW_THERMOSTAT_FIELDS as readonly string[]).includes(path)
          ? (path as NewThermostatField)
          : null,
    });
  }
  // Created at the service: from here on, nothing may say it was not.
  const createdId = written.answer?.thermostatId || thermostatId || null;
  await logWrite({
    ...where,
    ...words,
    thermostatId: createdId,
    changes: request,
    result: { written },
  });
  revalidatePath('/', 'layout');
  if (!createdId) {
    // Applied, but the answer that names the new thermostat could not be read.
    return {
      status: 'error',
      message: `The service created ${name} in ${building.name}, but its answer could not be read, so Setpoint does not know the new thermostat’s id. Find the id at the service (or on the device) and add it by id; do not create it again.`,
      values: raw,
    };
  }
  try {
    await addThermostat({
      orgId: member.orgId,
      thermostatId: createdId,
      buildingId: building.buildingId,
      unitLabel: name,
    });
    // The service shows only the mode in effect: Setpoint keeps the one it asked for.
    await recordPendingMode({ orgId: member.orgId, thermostatId: createdId, mode: hvacMode });
  } catch (error) {
    logWarning(`created ${createdId} at the service but could not add it here`, String(error));
    return {
      status: 'error',
      message: `The service created ${name} (id ${createdId}), but Setpoint could not add it to your portfolio just now. Add it by id; do not create it again.`,
      values: raw,
    };
  }
  redirect(`/thermostats/${createdId}`);
}

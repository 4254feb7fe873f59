'use server';

import { revalidatePath } from 'next/cache';
import { openThermostat, serviceFailure } from '@/lib/access/actions';
import { CHECK_FIELDS } from '@/lib/platform/forms';
import { logWrite } from '@/lib/activity/sink';
import type { FormState } from '@/lib/platform/forms';
import {
  type AccessControlField,
  accessControlFieldOf,
  validateAccessControl,
  viewOf,
} from '@/lib/settings/access-control';
import { labelOf } from '@/lib/settings/current';
import { findLastAccessControl } from '@/lib/templates/last-access-control';
import { updateAccessControl } from '@/lib/service/resources';
import { LOCK_AREAS } from '@/lib/service/schemas';
import { accessControlUndo, type UndoRecord, unavailable } from '@/lib/templates/undo/entries';

type State = FormState<AccessControlField | 'passcodeSet' | 'form'>;

/**
 * Sets access control. The passcode goes to the service and nowhere else: not into the state
 * returned to the browser, not into a message, not into the activity log (only "changed").
 */
export async function saveAccessControl(
  thermostatId: string,
  _previous: State,
  form: FormData,
): Promise<State> {
  const opened = await openThermostat(thermostatId);
  if (!opened.ok) return opened.state;
  const { member, thermostat } = opened;

  const input = {
    enabled: form.get('enabled'),
    passcode: form.get('passcode'),
    clearPasscode: form.get('clearPasscode'),
    ...Object.fromEntries(LOCK_AREAS.map((area) => [area, form.get(area)])),
  };
  // What the member chose, to refill the form: never the passcode.
  const refill: State['values'] = {
    enabled: input.enabled === 'on' || input.enabled === 'off' ? input.enabled : '',
    ...Object.fromEntries(LOCK_AREAS.map((area) => [area, form.get(area) ? 'on' : ''])),
  };
  const result = validateAccessControl(input);
  if (!result.ok) {
    return {
      status: 'error',
      message: CHECK_FIELDS,
      fieldErrors: result.fieldErrors,
      values: refill,
    };
  }
  const { changes } = result;

  const label = labelOf(thermostat);
  const logged: Record<string, unknown> = { enabled: changes.enabled };
  if (changes.enabled) {
    if (changes.settings) logged.settings = changes.settings;
    if (result.passcode !== 'kept') logged.passcode = 'changed';
  }
  const passcodeWords =
    changes.enabled && result.passcode === 'changed'
      ? ', passcode changed'
      : changes.enabled && result.passcode === 'removed'
        ? ', passcode removed'
        : '';
  const summary = changes.enabled
    ? `Turned access control on for ${label}${passcodeWords}`
    : `Turned access control off for ${label}`;
  // The service cannot be asked what it replaces: what Setpoint last set is the best it knows
  // (a database read). Locks only, never the passcode.
  let undo: UndoRecord;
  try {
    const before = await findLastAccessControl({
      scope: member,
      thermostatId: thermostat.thermostatId,
    });
    undo = accessControlUndo({ label, before, changes, passcode: result.passcode });
  } catch {
    undo = unavailable(
      'What it replaced could not be looked up, so it cannot be undone automatically.',
    );
  }
  const what = {
    actor: member,
    action: 'access_control.update',
    thermostatId: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
    changes: { ...logged, ...undo },
  } as const;
  const words = {
    done: summary,
    asked: `${summary.charAt(0).toLowerCase()}${summary.slice(1)}`.replace(/^turned/, 'turn'),
  };
  try {
    const written = await updateAccessControl({ ...opened.on, changes });
    await logWrite({ ...what, ...words, result: { written } });
    revalidatePath(`/thermostats/${thermostat.thermostatId}/access-control`);
    // What is in force: as the service answered, or else as sent (a passcode left alone is
    // set or not as before, which Setpoint does not know).
    const view = written.answer
      ? viewOf(written.answer)
      : {
          enabled: changes.enabled,
          passcodeSet:
            changes.enabled && result.passcode === 'kept' ? null : result.passcode === 'changed',
          settings: Object.fromEntries(
            LOCK_AREAS.map((area) => [area, changes.enabled && changes.settings?.[area] === true]),
          ) as Record<(typeof LOCK_AREAS)[number], boolean>,
        };
    const passcodeWords =
      view.passcodeSet === null
        ? ' (its passcode as before)'
        : view.passcodeSet
          ? ' with a passcode'
          : ' without a passcode';
    return {
      status: 'success',
      message: view.enabled
        ? `Access control is on${passcodeWords}.`
        : `Access control is off: nothing is locked and there is no passcode.${result.note ? ` ${result.note}` : ''}`,
      values: {
        enabled: view.enabled ? 'on' : 'off',
        passcodeSet: view.passcodeSet === null ? '' : view.passcodeSet ? 'yes' : 'no',
        ...Object.fromEntries(LOCK_AREAS.map((area) => [area, view.settings[area] ? 'on' : ''])),
      },
    };
  } catch (error) {
    await logWrite({ ...what, ...words, result: { error } });
    return serviceFailure(error, { values: refill, fieldOf: accessControlFieldOf });
  }
}

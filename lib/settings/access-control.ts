import type { AccessControlChanges } from '@/lib/service/resources';
import { type AccessControl, LOCK_AREAS } from '@/lib/service/schemas';

/**
 * Access control as a manager sets it: the toggle, a passcode (write-only, exactly four ASCII
 * digits, kept as a string so leading zeros survive) and the five lockable areas. A passcode is
 * never put back into a form, a message or a log: only whether one was changed.
 */

export type LockArea = (typeof LOCK_AREAS)[number];
export type AccessControlField = 'enabled' | 'passcode' | 'clearPasscode' | LockArea;
export type AccessControlErrors = Partial<Record<AccessControlField | 'form', string[]>>;

export const LOCK_AREA_TEXT: Record<LockArea, { label: string; description: string }> = {
  temperature: {
    label: 'Temperature',
    description: 'Changing the setpoints at the thermostat needs the passcode.',
  },
  systemMode: {
    label: 'System mode',
    description: 'Switching between heat, cool, auto and off needs the passcode.',
  },
  schedule: { label: 'Schedule', description: 'Editing the weekly schedule needs the passcode.' },
  vacation: {
    label: 'Vacation',
    description: 'Creating or changing vacations needs the passcode.',
  },
  other: {
    label: 'Other settings',
    description: 'Every other setting on the device needs the passcode.',
  },
};

/** Exactly four ASCII digits: `\d` would be ASCII too, but this says so. */
export const PASSCODE_PATTERN = /^[0-9]{4}$/;

/** Why a typed passcode is refused, in words that never repeat it; null when it is fine. */
export function passcodeProblem(passcode: string): string | null {
  if (PASSCODE_PATTERN.test(passcode)) return null;
  if (!/^[0-9]*$/.test(passcode)) return 'Use the digits 0–9 only.';
  return `Use exactly 4 digits (you typed ${passcode.length}).`;
}

export type AccessControlInput = {
  enabled?: unknown;
  passcode?: unknown;
  clearPasscode?: unknown;
} & Partial<Record<LockArea, unknown>>;

export type AccessControlResult =
  | {
      ok: true;
      changes: AccessControlChanges;
      passcode: 'changed' | 'removed' | 'kept';
      /** What was sent but does not apply, said to the member with the answer (never refused). */
      note?: string;
    }
  | { ok: false; fieldErrors: AccessControlErrors };

/** Said when access control is turned off with areas ticked: they are not locked. */
export const LOCKS_IGNORED_WHEN_OFF =
  'The ticked areas were not locked: locks apply only while access control is on.';

const checked = (value: unknown) => value === 'on' || value === 'true' || value === true;

/**
 * Every field is posted at once (the form disables none, so it works in one save without
 * JavaScript), and this decides what applies:
 * - "Off" unlocks everything and removes the passcode, so areas left ticked (the form starts from
 *   the last state, so turning a locked thermostat off arrives with its locks ticked) and
 *   "Remove the passcode" agree with it: they are ignored, and the note says the ticked areas
 *   were not locked. Refusing them would make turning it off take unticking five boxes first.
 * - A new passcode typed with "Off" is refused under its field: it is a deliberate secret meant to
 *   protect the thermostat, and dropping it would leave the member believing it is set.
 */
export function validateAccessControl(input: AccessControlInput): AccessControlResult {
  const errors: AccessControlErrors = {};
  const add = (field: AccessControlField, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  // An explicit choice: the service cannot be asked for the current state, so a missing answer
  // must never read as "off" (saving an untouched form would unlock a common-area thermostat).
  if (input.enabled !== 'on' && input.enabled !== 'off') {
    add('enabled', 'Choose whether access control is on or off.');
  }
  const enabled = input.enabled === 'on';
  const passcode = typeof input.passcode === 'string' ? input.passcode : '';
  const clear = checked(input.clearPasscode);
  // Anything but text (a file) is not "no passcode": it is refused, never read as keep.
  if (input.passcode !== undefined && input.passcode !== null && typeof input.passcode !== 'string')
    return { ok: false, fieldErrors: { passcode: ['Use the digits 0–9 only.'] } };

  if (!enabled) {
    if (passcode !== '') {
      add(
        'passcode',
        'A passcode can only be set while access control is on: choose On, or clear the passcode to turn it off.',
      );
    }
    if (Object.keys(errors).length > 0) return { ok: false, fieldErrors: errors };
    // Turning it off unlocks everything and clears the passcode at the service.
    const ticked = LOCK_AREAS.some((area) => checked(input[area]));
    return {
      ok: true,
      changes: { enabled: false },
      passcode: 'removed',
      ...(ticked ? { note: LOCKS_IGNORED_WHEN_OFF } : {}),
    };
  }

  if (passcode !== '') {
    const problem = passcodeProblem(passcode);
    if (problem) add('passcode', problem);
    if (clear) add('clearPasscode', 'Either enter a new passcode or remove it, not both.');
  }
  if (Object.keys(errors).length > 0) return { ok: false, fieldErrors: errors };

  const settings = Object.fromEntries(
    LOCK_AREAS.map((area) => [area, checked(input[area])]),
  ) as Record<LockArea, boolean>;
  const changes: AccessControlChanges = { enabled: true, settings };
  if (passcode !== '') changes.passcode = passcode;
  else if (clear) changes.passcode = null;
  return {
    ok: true,
    changes,
    passcode: passcode !== '' ? 'changed' : clear ? 'removed' : 'kept',
  };
}

/** What the service answered, safe to keep in the browser: never the passcode, only whether one is set. */
export type AccessControlView = {
  enabled: boolean;
  passcodeSet: boolean;
  settings: Record<LockArea, boolean>;
};

export function viewOf(answer: AccessControl): AccessControlView {
  return {
    enabled: answer.enabled,
    passcodeSet: answer.passcodeSet,
    settings: Object.fromEntries(
      LOCK_AREAS.map((area) => [area, Boolean(answer.settings[area])]),
    ) as Record<LockArea, boolean>,
  };
}

/** Service paths (`passcode`, `settings.temperature`) as form fields. */
/**
 * The access-control form's field for a field path in the service's validation answer. The
 * service's own message is shown as it is; it never carries the digits.
 */
export function accessControlFieldOf(path: string): AccessControlField | 'form' {
  if (path === 'passcode' || path === 'enabled') return path;
  const tail = path.replace(/^settings\./, '');
  return (LOCK_AREAS as readonly string[]).includes(tail) ? (tail as LockArea) : 'form';
}

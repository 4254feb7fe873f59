import { z } from 'zod';
import type { AccessControlChanges } from '@/lib/service/resources';
import { type AccessControl, LOCK_AREAS } from '@/lib/service/schemas';
import { ACROSS_FIELDS } from '@/lib/platform/forms';
import { checkedBy, tickedBox } from './form-data';

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

/** Said of a passcode with anything but the digits 0–9 in it, or posted as anything but text. */
const DIGITS_ONLY = 'Use the digits 0–9 only.';

/** Why a typed passcode is refused, in words that never repeat it; null when it is fine. */
export function passcodeProblem(passcode: string): string | null {
  if (PASSCODE_PATTERN.test(passcode)) return null;
  if (!/^[0-9]*$/.test(passcode)) return DIGITS_ONLY;
  return `Use exactly 4 digits (you typed ${passcode.length}).`;
}

export type AccessControlInput = {
  enabled?: unknown;
  passcode?: unknown;
  clearPasscode?: unknown;
} & Partial<Record<LockArea, unknown>>;

/** What a form that passed is to do. */
type AccessControlSave = {
  changes: AccessControlChanges;
  passcode: 'changed' | 'removed' | 'kept';
  /** What was sent but does not apply, said to the member with the answer (never refused). */
  note?: string;
};

export type AccessControlResult =
  | ({ ok: true } & AccessControlSave)
  | { ok: false; fieldErrors: AccessControlErrors };

/** Said when access control is turned off with areas ticked: they are not locked. */
export const LOCKS_IGNORED_WHEN_OFF =
  'The ticked areas were not locked: locks apply only while access control is on.';

/**
 * On or off, an explicit choice: the service cannot be asked for the current state, so a missing
 * answer must never read as "off" (saving an untouched form would unlock a common-area
 * thermostat).
 */
export const accessControlChoice = z.enum(
  ['on', 'off'],
  'Choose whether access control is on or off.',
);

const lockAreas = Object.fromEntries(LOCK_AREAS.map((area) => [area, tickedBox])) as Record<
  LockArea,
  typeof tickedBox
>;

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
const accessControlSchema = z
  // Anything but text (a file) is not "no passcode": it is refused, never read as keep, and
  // before anything else is read.
  .looseObject({
    passcode: z
      .string(DIGITS_ONLY)
      .nullish()
      .transform((passcode) => passcode ?? ''),
  })
  .pipe(
    z
      .object({
        enabled: accessControlChoice,
        passcode: z.string(),
        clearPasscode: tickedBox,
        ...lockAreas,
      })
      .superRefine(({ enabled, passcode, clearPasscode }, ctx) => {
        if (passcode === '') return;
        const fail = (field: AccessControlField, message: string) =>
          ctx.addIssue({ code: 'custom', path: [field], message });
        if (enabled !== 'on') {
          fail(
            'passcode',
            'A passcode can only be set while access control is on: choose On, or clear the passcode to turn it off.',
          );
          return;
        }
        const problem = passcodeProblem(passcode);
        if (problem) fail('passcode', problem);
        if (clearPasscode)
          fail('clearPasscode', 'Either enter a new passcode or remove it, not both.');
      }, ACROSS_FIELDS)
      .transform((values): AccessControlSave => {
        if (values.enabled === 'off') {
          // Turning it off unlocks everything and clears the passcode at the service.
          const ticked = LOCK_AREAS.some((area) => values[area]);
          return {
            changes: { enabled: false },
            passcode: 'removed',
            ...(ticked ? { note: LOCKS_IGNORED_WHEN_OFF } : {}),
          };
        }
        const { passcode, clearPasscode } = values;
        const settings = Object.fromEntries(
          LOCK_AREAS.map((area) => [area, values[area]]),
        ) as Record<LockArea, boolean>;
        const changes: AccessControlChanges = { enabled: true, settings };
        if (passcode !== '') changes.passcode = passcode;
        else if (clearPasscode) changes.passcode = null;
        return {
          changes,
          passcode: passcode !== '' ? 'changed' : clearPasscode ? 'removed' : 'kept',
        };
      }),
  );

export function validateAccessControl(input: AccessControlInput): AccessControlResult {
  return checkedBy<AccessControlField, AccessControlSave>(accessControlSchema, input);
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

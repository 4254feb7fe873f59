import { LOCK_AREAS } from '@/lib/service/schemas';
import { ACCESS_FIELD, INCLUDE_FIELDS, lockField } from './fields';
import type { FormReader } from './reader';
import type { TemplateDraft } from './types';
import type { FormWriter } from './writer';

/**
 * The access control section: on or off (`accessControl`) and the locks (`lock.<area>`). There is
 * no passcode field: each thermostat keeps its own.
 */

export function accessControlValues(draft: TemplateDraft, { values, tick, on }: FormWriter) {
  const access = draft.accessControl;
  values[INCLUDE_FIELDS.accessControl] = tick(access !== undefined);
  values[ACCESS_FIELD] = access === undefined ? '' : access.enabled ? 'on' : 'off';
  for (const area of LOCK_AREAS) values[lockField(area)] = on(access?.settings?.[area]);
}

/** Access control: on or off, and the locks. Never a passcode (each thermostat keeps its own). */
export function parseAccessControl({ add, text, checked }: FormReader) {
  if (!checked(INCLUDE_FIELDS.accessControl)) return undefined;
  const state = text(ACCESS_FIELD);
  if (state === 'off') return { enabled: false };
  if (state === 'on') {
    return {
      enabled: true,
      settings: Object.fromEntries(LOCK_AREAS.map((area) => [area, checked(lockField(area))])),
    };
  }
  add(ACCESS_FIELD, 'Choose whether access control is on or off.');
  return undefined;
}

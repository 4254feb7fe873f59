import { z } from 'zod';
import { LOCK_AREAS } from '@/lib/service/schemas';
import { accessControlChoice } from '@/lib/settings/access-control';
import { ACCESS_FIELD, INCLUDE_FIELDS, lockField } from './fields';
import { box } from './section';
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

/**
 * Access control: on or off (chosen as on the thermostat's own form), and the locks. Never a
 * passcode (each thermostat keeps its own).
 */
export const accessControlSchema = z
  .object({
    [ACCESS_FIELD]: accessControlChoice,
    ...(Object.fromEntries(LOCK_AREAS.map((area) => [lockField(area), box])) as Record<
      string,
      typeof box
    >),
  })
  .transform((values: Record<string, unknown>) =>
    values[ACCESS_FIELD] === 'off'
      ? { enabled: false }
      : {
          enabled: true,
          settings: Object.fromEntries(
            LOCK_AREAS.map((area) => [area, values[lockField(area)] === true]),
          ),
        },
  );

import { LOCK_AREAS } from '@/lib/service/schemas';
import type { Template } from '../schema';
import { accessControlLines, type LockState } from '../words';
import type { LockChanges, SectionDiff, TemplateOperation } from './types';

/** The locks of a plan, compared with what Setpoint last set (the service has no read for them). */
export function accessPart(
  wanted: NonNullable<Template['accessControl']>,
  current: LockState | null,
) {
  const target: LockState = wanted.enabled
    ? { enabled: true, settings: { ...wanted.settings } }
    : {
        enabled: false,
        settings: Object.fromEntries(
          LOCK_AREAS.map((area) => [area, false]),
        ) as LockState['settings'],
      };
  // An unknown state is always written: the template's locks must hold whatever the device did.
  const same =
    current !== null &&
    current.enabled === target.enabled &&
    (!target.enabled ||
      LOCK_AREAS.every((area) => current.settings[area] === target.settings[area]));
  // The whole lock state, not only what differs: what Setpoint knows is only what it last set.
  const changes: LockChanges = wanted.enabled
    ? { enabled: true, settings: { ...wanted.settings } }
    : { enabled: false };
  return {
    operations: same ? [] : [{ kind: 'accessControl', changes } satisfies TemplateOperation],
    section: {
      section: 'accessControl',
      title: 'Access control',
      summary: current ? 'Locks to change.' : 'Not known, so set as the template says.',
      lines: same ? [] : accessControlLines(current, target),
    } satisfies SectionDiff,
  };
}

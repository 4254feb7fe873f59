import { RESIDENT_OFF_RESETS } from '../schema';
import { need } from './shared';
import type { SectionDiff, TemplateOperation, ThermostatState } from './types';

/** Resident mode in a plan: on changes nothing else; off resets the thermostat, said loudly. */
export function residentPart(wanted: boolean, current: ThermostatState) {
  const now = need(current.isResidentMode, 'isResidentMode');
  const same = now === wanted;
  const resets = !same && !wanted;
  return {
    operations: same
      ? []
      : [{ kind: 'residentMode', changes: { isResidentMode: wanted } } satisfies TemplateOperation],
    warnings: resets ? [RESIDENT_OFF_RESETS] : [],
    section: {
      section: 'residentMode',
      title: 'Resident mode',
      summary: same
        ? 'No change.'
        : resets
          ? `Turned off. ${RESIDENT_OFF_RESETS}`
          : 'Turned on; nothing else changes.',
      lines: same
        ? []
        : [
            {
              field: 'Resident mode',
              before: now ? 'on' : 'off',
              after: resets ? 'off: every setting reset to the service’s defaults' : 'on',
            },
          ],
    } satisfies SectionDiff,
  };
}

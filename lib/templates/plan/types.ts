import type { Day } from '@/lib/schedule/blocks';
import type { LockArea } from '@/lib/settings/access-control';
import type { AlertChanges } from '@/lib/settings/alerts';
import type { CurrentSettings } from '@/lib/settings/configuration';
import type { ComfortSettingFields, SettingsChanges } from '@/lib/service/resources';
import type { AlertSettings, ComfortSetting } from '@/lib/service/schemas';
import type { TemperatureUnit } from '@/lib/platform/units';
import type { ComfortSettingTarget } from '../comfort-match';
import type { Week } from '../schedule-diff';
import type { TemplateSection } from '../schema';
import type { DiffLine, LockState } from '../words';

/**
 * The shapes a plan is made of, which every section's planner in this folder and the plan
 * itself (index.ts) share: the state read, the operations, a section's diff.
 */

/** One thermostat as read before planning; a section the template leaves out need not be read. */
export type ThermostatState = {
  /** From its status: the gap its comfort settings and temperature alerts must keep. */
  heatCoolMinDelta?: number;
  /** From its status. */
  isResidentMode?: boolean;
  comfortSettings?: readonly ComfortSetting[];
  /** 7 x 48 comfort-setting refs, Monday first, as lib/schedule/load.ts reads them. */
  week?: Week;
  configuration?: CurrentSettings;
  alerts?: AlertSettings;
  /**
   * The service has no read for access control: what Setpoint last set
   * (lib/templates/last-access-control.ts), or null when that is not known.
   */
  accessControl?: LockState | null;
};

/**
 * Each operation is exactly one service call. A schedule update names a comfort setting the
 * thermostat has, or one this plan creates (its ref exists only once it is created: see
 * `scheduleUpdateOf`). A configuration change runs before the comfort settings, after them, or
 * (when the new ranges exclude today's setpoints and the new setpoints today's ranges) both:
 * first widened to hold both, then narrowed.
 */
export type TemplateOperation =
  | { kind: 'configuration'; stage: 'before' | 'after'; changes: SettingsChanges }
  | { kind: 'createComfortSetting'; fields: ComfortSettingFields }
  | {
      kind: 'updateComfortSetting';
      comfortSettingRef: string;
      changes: Partial<ComfortSettingFields>;
    }
  | {
      kind: 'schedule';
      days: Day[];
      firstSlot: number;
      lastSlot: number;
      comfortSetting: ComfortSettingTarget;
    }
  | { kind: 'alerts'; changes: AlertChanges }
  | { kind: 'accessControl'; changes: LockChanges }
  /** Always last: off resets the thermostat's settings at the service. */
  | { kind: 'residentMode'; changes: { isResidentMode: boolean } };

/** Never a passcode: on keeps each thermostat's own, off clears it (the service's rule). */
export type LockChanges =
  | { enabled: false }
  | { enabled: true; settings: Record<LockArea, boolean> };

export type OperationKind = TemplateOperation['kind'];

export type SectionDiff = {
  section: TemplateSection;
  title: string;
  /** One sentence: what changes in the section, or why it cannot. */
  summary: string;
  /** In the unit the plan was made in. */
  lines: DiffLine[];
  /**
   * The same lines in each unit, where they name temperatures, so that every reader reads their
   * own (`sectionLines`); absent where no line does, and in plans stored before.
   */
  linesIn?: Record<TemperatureUnit, DiffLine[]>;
};

import { applyRange } from '@/lib/schedule/blocks';
import type { AlertChanges } from '@/lib/settings/alerts';
import { HUMIDITY_MIN_GAP } from '@/lib/settings/alerts';
import {
  type LockState,
  scheduleUpdateOf,
  type TemplateOperation,
  type ThermostatState,
} from '@/lib/templates/plan';
import { nameKey } from '@/lib/templates/schema';
import type { AlertSettings, ComfortSetting } from '@/lib/service/schemas';
import { LOCK_AREAS } from '@/lib/service/schemas';
import {
  defaultAlertSettings,
  defaultComfortSettings,
  defaultSettings,
  residentialSchedule,
} from '@/sandbox/src/store';

/**
 * A template plan's operations run against one thermostat's state in memory, refusing what the
 * service refuses (sandbox/README.md, sandbox/src/api-v2/): a range that leaves a comfort setting
 * outside it, setpoints outside the ranges of the moment or closer than the thermostat's gap, a
 * 17th setting, a name already taken, a schedule ref that does not exist, alerts closer than
 * their gaps. So a plan that runs here runs there, in that order.
 */

/** Every part read; resident mode absent reads as on (the sandbox fixtures' thermostats are). */
export type FullState = Required<Omit<ThermostatState, 'week' | 'isResidentMode'>> & {
  week: string[][];
  isResidentMode?: boolean;
};

export function applyOperations(
  state: FullState,
  operations: readonly TemplateOperation[],
): FullState {
  const next = structuredClone(state) as FullState;
  const created = new Map<string, string>();
  for (const operation of operations) {
    switch (operation.kind) {
      case 'configuration': {
        const ranges = { ...next.configuration, ...operation.changes };
        for (const setting of next.comfortSettings) refuseOutside(setting, ranges, 'configuration');
        next.configuration = ranges;
        break;
      }
      case 'createComfortSetting': {
        if (next.comfortSettings.length >= 16) throw new Error('refused: a 17th comfort setting');
        refuseTakenName(next.comfortSettings, operation.fields.name, null);
        refuseSetpoints(next, operation.fields);
        const ref = freshRef(next.comfortSettings);
        next.comfortSettings = [
          ...next.comfortSettings,
          { comfortSettingRef: ref, ...operation.fields },
        ];
        created.set(nameKey(operation.fields.name), ref);
        break;
      }
      case 'updateComfortSetting': {
        const index = next.comfortSettings.findIndex(
          (setting) => setting.comfortSettingRef === operation.comfortSettingRef,
        );
        if (index < 0)
          throw new Error(`refused: no comfort setting ${operation.comfortSettingRef}`);
        const merged = { ...(next.comfortSettings[index] as ComfortSetting), ...operation.changes };
        if (operation.changes.name !== undefined)
          refuseTakenName(next.comfortSettings, merged.name, merged.comfortSettingRef);
        refuseSetpoints(next, merged);
        next.comfortSettings = next.comfortSettings.map((setting, i) =>
          i === index ? merged : setting,
        );
        break;
      }
      case 'schedule': {
        const update = scheduleUpdateOf(operation, created);
        if (!next.comfortSettings.some((s) => s.comfortSettingRef === update.comfortSettingRef))
          throw new Error(`refused: the schedule names ${update.comfortSettingRef}`);
        next.week = applyRange(next.week, update, update.comfortSettingRef);
        break;
      }
      case 'alerts':
        next.alerts = mergeAlerts(next.alerts, operation.changes);
        refuseAlertGaps(next.alerts, next.heatCoolMinDelta);
        break;
      case 'accessControl':
        next.accessControl = lockStateAfter(next.accessControl, operation.changes);
        break;
      case 'residentMode': {
        const wasOn = next.isResidentMode ?? true;
        next.isResidentMode = operation.changes.isResidentMode;
        // The sandbox's reset (sandbox/src/store.ts `resetToDefaults`): on → off only.
        if (wasOn && !operation.changes.isResidentMode) Object.assign(next, resetState());
        break;
      }
    }
  }
  return next;
}

/** What turning resident mode off leaves: the sandbox's defaults, access control off and known. */
function resetState(): Omit<FullState, 'isResidentMode'> {
  return {
    heatCoolMinDelta: 5,
    comfortSettings: defaultComfortSettings().map((setting) => ({ ...setting })),
    week: residentialSchedule(),
    configuration: defaultSettings(),
    alerts: { ...defaultAlertSettings() },
    accessControl: {
      enabled: false,
      settings: Object.fromEntries(
        LOCK_AREAS.map((area) => [area, false]),
      ) as LockState['settings'],
    },
  };
}

type Setpoints = { desiredHeat: number; desiredCool: number; name?: string };
type Ranges = FullState['configuration'];

function refuseOutside(setting: Setpoints, ranges: Ranges, what: string) {
  const { heatRange, coolRange } = ranges;
  const heat = setting.desiredHeat;
  const cool = setting.desiredCool;
  if (heat < heatRange.min || heat > heatRange.max || cool < coolRange.min || cool > coolRange.max)
    throw new Error(`refused ${what}: ${setting.name ?? ''} ${heat}/${cool} outside the ranges`);
}

function refuseSetpoints(state: FullState, setting: Setpoints) {
  refuseOutside(setting, state.configuration, 'setpoints');
  if (setting.desiredCool - setting.desiredHeat < state.heatCoolMinDelta)
    throw new Error(`refused: ${setting.name ?? ''} closer than ${state.heatCoolMinDelta}`);
}

function refuseTakenName(settings: readonly ComfortSetting[], name: string, own: string | null) {
  const clash = settings.find(
    (setting) => setting.comfortSettingRef !== own && nameKey(setting.name) === nameKey(name),
  );
  if (clash) throw new Error(`refused: the name ${name} is taken by ${clash.comfortSettingRef}`);
}

/** `smart<N>`, never one in use (the service never reuses one). */
function freshRef(settings: readonly ComfortSetting[]): string {
  const used = new Set(settings.map((setting) => setting.comfortSettingRef));
  let n = 1;
  while (used.has(`smart${n}`)) n++;
  return `smart${n}`;
}

function mergeAlerts(now: AlertSettings, changes: AlertChanges): AlertSettings {
  const next = structuredClone(now);
  for (const [key, value] of Object.entries(changes)) {
    const name = key as keyof AlertChanges;
    Object.assign(next, { [name]: { ...(next[name] ?? { enabled: false, value: 0 }), ...value } });
  }
  return next;
}

function refuseAlertGaps(alerts: AlertSettings, delta: number) {
  const gap = (low?: { value: number }, high?: { value: number }) =>
    low && high ? high.value - low.value : Number.POSITIVE_INFINITY;
  if (gap(alerts.lowTemperatureAlert, alerts.highTemperatureAlert) < delta)
    throw new Error('refused: temperature alerts too close');
  if (gap(alerts.lowHumidityAlert, alerts.highHumidityAlert) < HUMIDITY_MIN_GAP)
    throw new Error('refused: humidity alerts too close');
}

function lockStateAfter(
  now: LockState | null,
  changes: Extract<TemplateOperation, { kind: 'accessControl' }>['changes'],
): LockState {
  if ('passcode' in changes) throw new Error('a template operation carried a passcode');
  const off = Object.fromEntries(LOCK_AREAS.map((area) => [area, false])) as LockState['settings'];
  if (!changes.enabled) return { enabled: false, settings: off };
  return {
    enabled: true,
    settings: { ...(now?.enabled ? now.settings : off), ...changes.settings },
  };
}

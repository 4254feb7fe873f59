import { type AlertChanges, HUMIDITY_MIN_GAP } from '@/lib/settings/alerts';
import type { AlertSettings } from '@/lib/service/schemas';
import type { TemperatureUnit } from '@/lib/platform/units';
import type { TemplateAlerts } from '../schema';
import { alertLines, type PlanProblem } from '../words';
import { linesInUnits, need } from './shared';
import type { SectionDiff, TemplateOperation, ThermostatState } from './types';

/** The alert settings of a plan: the fields the template sets that differ, as one call. */

type ThresholdName = Exclude<keyof AlertChanges, 'hvacMaintenanceReminder'>;
const THRESHOLDS: ThresholdName[] = [
  'lowTemperatureAlert',
  'highTemperatureAlert',
  'lowHumidityAlert',
  'highHumidityAlert',
];

/** The fields of `wanted` whose value differs from `now`'s; undefined when none does. */
function differing<W extends object>(now: object | undefined, wanted: W | undefined) {
  if (!wanted) return undefined;
  const before = (now ?? {}) as Record<string, unknown>;
  const result: Partial<W> = {};
  for (const key of Object.keys(wanted) as (keyof W & string)[]) {
    if (wanted[key] !== undefined && wanted[key] !== before[key]) result[key] = wanted[key];
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

export function alertsPart(
  wanted: TemplateAlerts,
  current: ThermostatState,
  unit: TemperatureUnit,
  problems: PlanProblem[],
) {
  const now = need(current.alerts, 'alerts');
  const changes: AlertChanges = {};
  const reminder = differing(now.hvacMaintenanceReminder, wanted.hvacMaintenanceReminder);
  if (reminder) changes.hvacMaintenanceReminder = reminder;
  for (const name of THRESHOLDS) {
    const change = differing(now[name], wanted[name]);
    if (change) changes[name] = change;
  }
  const hasChanges = Object.keys(changes).length > 0;
  if (hasChanges) alertGapProblems(now, changes, current, problems);
  return {
    operations: hasChanges ? [{ kind: 'alerts', changes } satisfies TemplateOperation] : [],
    section: {
      section: 'alerts',
      title: 'Alerts',
      summary: hasChanges ? 'Alert settings to change.' : 'No change.',
      ...linesInUnits(unit, (inUnit) => alertLines(now, changes, inUnit)),
    } satisfies SectionDiff,
  };
}

/** The service checks each low–high pair as it will be after the change, whatever changed. */
function alertGapProblems(
  now: AlertSettings,
  changes: AlertChanges,
  current: ThermostatState,
  problems: PlanProblem[],
) {
  const value = (name: ThresholdName) => changes[name]?.value ?? now[name]?.value;
  const low = value('lowTemperatureAlert');
  const high = value('highTemperatureAlert');
  const gap = need(current.heatCoolMinDelta, 'heatCoolMinDelta');
  if (low !== undefined && high !== undefined && high - low < gap)
    problems.push({ kind: 'temperatureAlertGap', low, high, gap });
  const dry = value('lowHumidityAlert');
  const humid = value('highHumidityAlert');
  if (dry !== undefined && humid !== undefined && humid - dry < HUMIDITY_MIN_GAP)
    problems.push({
      kind: 'said',
      text: `Its humidity alerts would be ${dry} and ${humid} %, closer than the ${HUMIDITY_MIN_GAP} % it requires.`,
    });
}

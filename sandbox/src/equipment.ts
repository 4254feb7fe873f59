import type { ComfortSetting, Thermostat } from './store';

/**
 * What the HVAC equipment is doing, in the vocabulary of the production API's
 * `runningEquipment`. The simulation runs `heatPump`, `auxHeat1`, `auxHeat2`, `compCool1`,
 * `compCool2` and `fan`; nothing when idle, off or offline. The service API reports it as the
 * status record's `runningEquipment` (an object of 15 booleans); the control API also keeps the
 * older comma-separated `equipmentStatus`.
 */

/** Every key of the production `runningEquipment` object, in the reference's order. */
export const RUNNING_EQUIPMENT_KEYS = [
  'fan',
  'compCool1',
  'compCool2',
  'heatPump',
  'heatPump2',
  'heatPump3',
  'auxHeat1',
  'auxHeat2',
  'auxHeat3',
  'compHotWater',
  'auxHotWater',
  'humidifier',
  'dehumidifier',
  'ventilator',
  'economizer',
] as const;
export type RunningEquipmentKey = (typeof RUNNING_EQUIPMENT_KEYS)[number];
export type RunningEquipment = Record<RunningEquipmentKey, boolean>;

/** Heating or cooling starts this far past the setpoint (the device's differential). */
const DIFFERENTIAL_F = 0.5;
/** A second stage joins this far from the setpoint. */
const SECOND_STAGE_F = 3;

/**
 * The kind of system, from the modes the thermostat reports: `auxHeatOnly` means a heat pump
 * with auxiliary (strip) heat; heat without cool a boiler (hydronic, no fan); otherwise a
 * furnace with air conditioning, whose heat stages production APIs report as `auxHeat1/2`.
 */
type SystemKind = 'heatPump' | 'boiler' | 'furnace';

function systemKind(thermostat: Thermostat): SystemKind {
  if (thermostat.supportedModes.includes('auxHeatOnly')) return 'heatPump';
  if (!thermostat.supportedModes.includes('cool')) return 'boiler';
  return 'furnace';
}

function heatingStages(
  kind: SystemKind,
  auxOnly: boolean,
  secondStage: boolean,
): RunningEquipmentKey[] {
  if (kind === 'heatPump' && !auxOnly) {
    return secondStage ? ['heatPump', 'auxHeat1'] : ['heatPump'];
  }
  return secondStage ? ['auxHeat1', 'auxHeat2'] : ['auxHeat1'];
}

type ComfortView = Pick<ComfortSetting, 'desiredHeat' | 'desiredCool' | 'fanHeat' | 'fanCool'>;

/** The equipment running now, in order (stages first, then `fan`); empty when idle. */
export function runningEquipmentList(
  thermostat: Thermostat,
  comfort: ComfortView,
): RunningEquipmentKey[] {
  const { hvacMode, temperature } = thermostat;
  if (!thermostat.connected || hvacMode === 'off') return [];
  const kind = systemKind(thermostat);
  const heatingMode = hvacMode === 'heat' || hvacMode === 'auxHeatOnly' || hvacMode === 'auto';
  const coolingMode = (hvacMode === 'cool' || hvacMode === 'auto') && kind !== 'boiler';
  const heatGap = comfort.desiredHeat - temperature;
  const coolGap = temperature - comfort.desiredCool;
  let running: RunningEquipmentKey[] = [];
  if (heatingMode && heatGap > DIFFERENTIAL_F) {
    running = heatingStages(kind, hvacMode === 'auxHeatOnly', heatGap >= SECOND_STAGE_F);
  } else if (coolingMode && coolGap > DIFFERENTIAL_F) {
    running = coolGap >= SECOND_STAGE_F ? ['compCool1', 'compCool2'] : ['compCool1'];
  }
  if (kind === 'boiler') return running;
  // The air handler runs with any stage, and on its own when the comfort setting says `on`.
  const fanSettings =
    hvacMode === 'cool'
      ? [comfort.fanCool]
      : hvacMode === 'auto'
        ? [comfort.fanHeat, comfort.fanCool]
        : [comfort.fanHeat];
  const fanOn = fanSettings.includes('on');
  if (running.length > 0 || fanOn) running.push('fan');
  return running;
}

/** The production `runningEquipment`: all 15 keys, true for what runs now. */
export function runningEquipment(thermostat: Thermostat, comfort: ComfortView): RunningEquipment {
  const running = new Set(runningEquipmentList(thermostat, comfort));
  return Object.fromEntries(
    RUNNING_EQUIPMENT_KEYS.map((key) => [key, running.has(key)]),
  ) as RunningEquipment;
}

/** The control API's `equipmentStatus`: the running equipment comma-separated, `""` when idle. */
export function equipmentStatus(thermostat: Thermostat, comfort: ComfortView): string {
  return runningEquipmentList(thermostat, comfort).join(',');
}

import type { ComfortSetting, Thermostat } from './store';

/**
 * What the HVAC equipment is doing, as the status record's `equipmentStatus`: a comma-separated
 * list of running equipment in the vocabulary of production thermostat APIs (`heatPump`,
 * `auxHeat1`, `auxHeat2`, `compCool1`, `compCool2`, `fan`), empty when idle, off or offline.
 */

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

function heatingStages(kind: SystemKind, auxOnly: boolean, secondStage: boolean): string[] {
  if (kind === 'heatPump' && !auxOnly) {
    return secondStage ? ['heatPump', 'auxHeat1'] : ['heatPump'];
  }
  return secondStage ? ['auxHeat1', 'auxHeat2'] : ['auxHeat1'];
}

export function equipmentStatus(
  thermostat: Thermostat,
  comfort: Pick<ComfortSetting, 'desiredHeat' | 'desiredCool' | 'fanHeat' | 'fanCool'>,
): string {
  const { hvacMode, temperature } = thermostat;
  if (!thermostat.connected || hvacMode === 'off') return '';
  const kind = systemKind(thermostat);
  const heatingMode = hvacMode === 'heat' || hvacMode === 'auxHeatOnly' || hvacMode === 'auto';
  const coolingMode = (hvacMode === 'cool' || hvacMode === 'auto') && kind !== 'boiler';
  const heatGap = comfort.desiredHeat - temperature;
  const coolGap = temperature - comfort.desiredCool;
  let running: string[] = [];
  if (heatingMode && heatGap > DIFFERENTIAL_F) {
    running = heatingStages(kind, hvacMode === 'auxHeatOnly', heatGap >= SECOND_STAGE_F);
  } else if (coolingMode && coolGap > DIFFERENTIAL_F) {
    running = coolGap >= SECOND_STAGE_F ? ['compCool1', 'compCool2'] : ['compCool1'];
  }
  if (kind === 'boiler') return running.join(',');
  // The air handler runs with any stage, and on its own when the comfort setting says `on`.
  const fanSettings =
    hvacMode === 'cool'
      ? [comfort.fanCool]
      : hvacMode === 'auto'
        ? [comfort.fanHeat, comfort.fanCool]
        : [comfort.fanHeat];
  const fanOn = fanSettings.includes('on');
  if (running.length > 0 || fanOn) running.push('fan');
  return running.join(',');
}

import { describeRecordedFailure } from '@/lib/service/errors';
import { formatDate } from '@/lib/platform/time-format';
import { formatDelta, formatTemperature, type TemperatureUnit } from '@/lib/platform/units';
import { modeName as plainModeName } from '@/lib/platform/words';
import type { DriftWords } from '@/lib/templates/drift-words';
import {
  type AttentionItem,
  COMFORT_MARGIN_F,
  FREEZE_BELOW_F,
  OVERHEAT_ABOVE_F,
} from './conditions';

/**
 * What a manager reads for each item: a short title and one sentence, in plain words (no service
 * codes), temperatures in their own unit. Pure: the page and the tests share it.
 */

/** `under a minute`, `12 min`, `3 h 5 min`, `2 d 4 h`. */
export function formatDuration(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

const modeName = (mode: string | null) => plainModeName(mode, 'unknown');

const plural = (count: number, word: string) =>
  `${count.toLocaleString('en-US')} ${word}${count === 1 ? '' : 's'}`;

/** `12 days`, `about 5 months`, `over 6 years`: as precise as a reader needs. */
export function spellDays(days: number): string {
  if (days < 60) return plural(days, 'day');
  if (days < 731) return `about ${plural(Math.round(days / 30.44), 'month')}`;
  return `over ${plural(Math.floor(days / 365.25), 'year')}`;
}

export const TITLES: Record<AttentionItem['kind'], string> = {
  freeze: 'Freeze risk',
  overheat: 'Overheating',
  connection_ended: 'Service connection ended',
  not_connected: 'No service connection',
  offline: 'Offline',
  too_cold: 'Too cold',
  too_hot: 'Too hot',
  mode_pending: 'Mode change not taking effect',
  failed_writes: 'Changes failed',
  vacant_unsettled: 'Vacant, not known to be in its settings',
  connection_expiring: 'Service connection expires soon',
  move_out_passed: 'Move-out day passed',
  stale: 'Readings out of date',
  maintenance_overdue: 'Maintenance overdue',
  maintenance_due: 'Maintenance due',
  template_drift: 'Differs from its template',
};

/** How many of the differences an item's sentence names before saying how many more. */
export const DRIFT_SHOWN = 4;

/**
 * A drift's lines in the reader's unit. An incident stored before drift was kept in both units
 * holds one list, in °F: that is all there is of it.
 */
function driftIn(differs: DriftWords | readonly string[], unit: TemperatureUnit): string[] {
  if (Array.isArray(differs)) return differs.map(String);
  return (differs as DriftWords)[unit] ?? [];
}

const HEATING = /^(heatPump|auxHeat)/;
const COOLING = /^compCool/;

/**
 * What the equipment was doing at the reading, as it bears on a temperature out of bounds: the
 * heating (or cooling) running but not keeping up points at the equipment; not running, at its
 * settings or its controls. Nothing where the service did not say, or the thermostat is offline.
 */
export function equipmentClause(
  needs: 'heat' | 'cool',
  running: readonly string[] | null | undefined,
  offline: boolean,
): string {
  if (!running || offline) return '';
  const on = running.some((name) => (needs === 'heat' ? HEATING : COOLING).test(name));
  const what = needs === 'heat' ? 'heating' : 'cooling';
  return on ? ` Its ${what} is running.` : ` Its ${what} is not running.`;
}

/** The item's title and its sentence. */
export function describeItem(
  item: AttentionItem,
  options: { unit: TemperatureUnit; now: Date },
): { title: string; detail: string } {
  const { unit, now } = options;
  const temperature = (value: number) => formatTemperature(value, unit);
  const margin = formatDelta(COMFORT_MARGIN_F, unit);
  const ago = (at: Date) => formatDuration(now.getTime() - at.getTime());
  const title = TITLES[item.kind];
  switch (item.kind) {
    case 'freeze':
      return {
        title,
        detail: `${temperature(item.temperature)}${item.lastKnown ? ' when last seen' : ''}, below ${temperature(FREEZE_BELOW_F)}: pipes can freeze.${equipmentClause('heat', item.running, item.lastKnown)}`,
      };
    case 'overheat':
      return {
        title,
        detail: `${temperature(item.temperature)}${item.lastKnown ? ' when last seen' : ''}, above ${temperature(OVERHEAT_ABOVE_F)}.${equipmentClause('cool', item.running, item.lastKnown)}`,
      };
    case 'too_cold':
    case 'too_hot': {
      const cold = item.kind === 'too_cold';
      const cannot = cold
        ? item.mode === 'cool'
          ? ' It is set to Cool, so it will not heat.'
          : ''
        : item.mode === 'heat' || item.mode === 'auxHeatOnly'
          ? ` It is set to ${modeName(item.mode)}, so it will not cool.`
          : '';
      return {
        title,
        detail: `${temperature(item.temperature)} for ${item.orEarlier ? 'over ' : ''}${ago(item.since)}, more than ${margin} ${cold ? 'below its heat' : 'above its cool'} setpoint of ${temperature(item.setpoint)}.${cannot || equipmentClause(cold ? 'heat' : 'cool', item.running, false)}`,
      };
    }
    case 'offline':
      return {
        title,
        detail: !item.since
          ? 'The service says it is not connected; its readings are the last it sent.'
          : item.seen === false
            ? `Never seen connected: offline since Setpoint first read it, ${ago(item.since)} ago; its readings are the last it sent.`
            : `Not heard from for ${ago(item.since)}; its readings are the last it sent.`,
      };
    case 'mode_pending':
      return {
        title,
        detail: `Waiting for ${ago(item.since)} to change from ${modeName(item.from)} to ${modeName(item.to)}.`,
      };
    case 'maintenance_overdue':
      return {
        title,
        detail: `HVAC maintenance was due on ${formatDate(item.due)}, ${spellDays(-item.days)} ago.`,
      };
    case 'maintenance_due':
      return {
        title,
        detail:
          item.days === 0
            ? `HVAC maintenance is due today (${formatDate(item.due)}).`
            : `HVAC maintenance is due on ${formatDate(item.due)}, in ${plural(item.days, 'day')}.`,
      };
    case 'failed_writes':
      return {
        title,
        detail: `${item.count === 1 ? 'A change' : `${plural(item.count, 'change')}`} failed in the last 24 hours and ${item.count === 1 ? 'has' : 'have'} not succeeded since. The last, ${ago(item.last.at)} ago: ${item.last.summary}. ${describeRecordedFailure(item.last.error)}`,
      };
    case 'stale': {
      const kept = `readings are kept within ${formatDuration(item.achievableMs)}`;
      const why = item.failure
        ? ` The last attempt failed: ${describeRecordedFailure(item.failure)}`
        : '';
      return {
        title,
        detail: item.readAt
          ? `Last read ${ago(item.readAt)} ago; ${kept}.${why}`
          : `Not read since it was added ${ago(item.addedAt)} ago; ${kept}.${why}`,
      };
    }
    case 'template_drift': {
      const lines = driftIn(item.differs, unit);
      const shown = lines.slice(0, DRIFT_SHOWN);
      const more = lines.length - shown.length;
      const found = item.since ? ` First found ${ago(item.since)} ago.` : '';
      return {
        title,
        detail: `Not as “${item.templateName}” sets it (now → the template’s): ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}.${found}`,
      };
    }
    case 'vacant_unsettled':
      return {
        title: item.state === 'make_ready' ? 'Make-ready, not known to be in its settings' : title,
        detail: item.runId
          ? `Not known to be in its ${item.state === 'make_ready' ? 'make-ready' : 'vacant'} settings: ${item.detail}`
          : item.detail,
      };
    case 'move_out_passed':
      return {
        title,
        detail: `The resident was to move out on ${formatDate(item.moveOutOn)}, and no move-out is recorded: while it is not, the thermostat keeps its occupied settings. Record the move-out (or the notice withdrawn) on the unit’s page.`,
      };
    case 'connection_ended':
      return {
        title,
        detail:
          'The thermostat service refused to renew access: no thermostat is read or changed until an owner or admin reconnects.',
      };
    case 'not_connected':
      return {
        title,
        detail:
          'No service account is connected, so thermostats cannot be read or changed. An owner or admin connects it.',
      };
    case 'connection_expiring':
      return {
        title,
        detail: `Access to the thermostat service runs out in ${formatDuration(item.expiresAt.getTime() - now.getTime())}; an owner or admin must reconnect before then.`,
      };
  }
}

import { describeRange } from '@/lib/schedule/blocks';
import { LOCK_AREA_TEXT } from '@/lib/settings/access-control';
import { describeHoldAction } from '@/lib/settings/configuration';
import { LOCK_AREAS } from '@/lib/service/schemas';
import { formatRange, formatTemperature, type TemperatureUnit } from '@/lib/platform/units';
import { RESIDENT_OFF_RESETS, type Template } from './schema';

/**
 * A template in words, in the member's unit: which sections it sets (for the list) and what each
 * sets (for its page). What a template leaves out is left as each thermostat has it.
 */

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`;

/** "a", "a and b", "a, b and c". */
const listed = (items: readonly string[]) =>
  items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** The sections a template sets, in words: "3 comfort settings, a weekly schedule, alerts". */
export function sectionsInWords(template: Template): string[] {
  const parts: string[] = [];
  if (template.comfortSettings) {
    parts.push(plural(template.comfortSettings.length, 'comfort setting'));
  }
  if (template.schedule) parts.push('a weekly schedule');
  if (template.scheduleRanges) parts.push(plural(template.scheduleRanges.length, 'schedule range'));
  if (template.configuration) parts.push('configuration');
  if (template.alerts) parts.push('alert settings');
  if (template.accessControl) {
    parts.push(template.accessControl.enabled ? 'access control on' : 'access control off');
  }
  if (template.residentMode !== undefined)
    parts.push(template.residentMode ? 'resident mode on' : 'resident mode off');
  return parts;
}

export type SectionWords = {
  title: string;
  /** One line per setting. */
  lines: string[];
  /** The section in one line ("2 comfort settings: Home, Away"); its only line when it has one. */
  brief: string;
};

/** Each section a template sets, with one line per setting and the section in one line. */
export function describeTemplate(template: Template, unit: TemperatureUnit): SectionWords[] {
  return sectionLines(template, unit).map(({ title, lines, brief }) => ({
    title,
    lines,
    brief: lines.length === 1 ? (lines[0] ?? '') : (brief ?? plural(lines.length, 'setting')),
  }));
}

function sectionLines(
  template: Template,
  unit: TemperatureUnit,
): { title: string; lines: string[]; brief?: string }[] {
  const sections: { title: string; lines: string[]; brief?: string }[] = [];
  const degrees = (fahrenheit: number) => formatTemperature(fahrenheit, unit);
  const onOff = (on: boolean | undefined) => (on ? 'on' : 'off');

  if (template.comfortSettings) {
    sections.push({
      title: 'Comfort settings',
      brief: `${plural(template.comfortSettings.length, 'comfort setting')}: ${template.comfortSettings.map((setting) => setting.name).join(', ')}`,
      lines: template.comfortSettings.map(
        (setting) =>
          `${setting.name}: heat ${degrees(setting.desiredHeat)}, cool ${degrees(setting.desiredCool)}; fan ${setting.fanHeat} when heating, ${setting.fanCool} when cooling`,
      ),
    });
  }

  if (template.schedule) {
    const names = [...new Set(template.schedule.flat())];
    sections.push({
      title: 'Weekly schedule',
      lines: [`Every half hour of the week, using ${names.join(', ')}.`],
    });
  }

  if (template.scheduleRanges) {
    sections.push({
      title: 'Schedule ranges',
      brief: plural(template.scheduleRanges.length, 'range'),
      lines: template.scheduleRanges.map((range) => `${describeRange(range)}: ${range.name}`),
    });
  }

  const configuration = template.configuration;
  if (configuration) {
    const lines: string[] = [];
    const set = [
      configuration.heatRange && 'heat range',
      configuration.coolRange && 'cool range',
      configuration.holdAction && 'hold action',
      configuration.fanMinimumOnTime !== undefined && 'fan minimum on-time',
    ].filter((what): what is string => typeof what === 'string');
    if (configuration.heatRange)
      lines.push(`Heat range ${formatRange(configuration.heatRange, unit)}`);
    if (configuration.coolRange)
      lines.push(`Cool range ${formatRange(configuration.coolRange, unit)}`);
    if (configuration.holdAction) {
      lines.push(`Hold action: ${describeHoldAction(configuration.holdAction)}`);
    }
    if (configuration.fanMinimumOnTime !== undefined) {
      lines.push(`Fan minimum on-time ${configuration.fanMinimumOnTime} minutes per hour`);
    }
    sections.push({ title: 'Configuration', lines, brief: `Sets the ${listed(set)}` });
  }

  const alerts = template.alerts;
  if (alerts) {
    const lines: string[] = [];
    const names: string[] = [];
    const reminder = alerts.hvacMaintenanceReminder;
    if (reminder) {
      names.push('HVAC maintenance reminder');
      const parts = [`HVAC maintenance reminder ${onOff(reminder.enabled)}`];
      if (reminder.maintenanceInterval !== undefined) {
        parts.push(
          `every ${plural(reminder.maintenanceInterval, reminder.maintenanceIntervalUnits === 'hour' ? 'hour of running' : 'month', reminder.maintenanceIntervalUnits === 'hour' ? 'hours of running' : 'months')}`,
        );
      }
      if (reminder.lastMaintenanceDate) parts.push(`last done ${reminder.lastMaintenanceDate}`);
      lines.push(parts.join(', '));
    }
    const thresholds = [
      ['lowTemperatureAlert', 'Low temperature alert', degrees],
      ['highTemperatureAlert', 'High temperature alert', degrees],
      ['lowHumidityAlert', 'Low humidity alert', (value: number) => `${value} %`],
      ['highHumidityAlert', 'High humidity alert', (value: number) => `${value} %`],
    ] as const;
    for (const [key, label, format] of thresholds) {
      const alert = alerts[key];
      if (!alert) continue;
      names.push(label.toLowerCase());
      const value = alert.value === undefined ? '' : ` at ${format(alert.value)}`;
      lines.push(
        alert.enabled === undefined
          ? `${label}${value}`
          : `${label} ${onOff(alert.enabled)}${value}`,
      );
    }
    sections.push({
      title: 'Alert settings',
      lines,
      brief: `Sets the ${listed(names)}`,
    });
  }

  const access = template.accessControl;
  if (access) {
    const locked = access.enabled
      ? LOCK_AREAS.filter((area) => access.settings[area]).map((area) =>
          LOCK_AREA_TEXT[area].label.toLowerCase(),
        )
      : [];
    sections.push({
      title: 'Access control',
      lines: access.enabled
        ? [
            `On; locked: ${locked.join(', ') || 'nothing'}.`,
            'Each thermostat keeps its own passcode; a template never holds one.',
          ]
        : ['Off: everything unlocked, and each thermostat’s passcode cleared.'],
    });
  }

  if (template.residentMode !== undefined) {
    sections.push({
      title: 'Resident mode',
      lines: template.residentMode ? ['On.'] : [`Off. ${RESIDENT_OFF_RESETS}`],
    });
  }
  return sections;
}

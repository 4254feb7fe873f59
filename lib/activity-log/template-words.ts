import { BLOCKS_PER_DAY, blockTime } from '@/lib/schedule/blocks';
import { LOCK_AREA_TEXT } from '@/lib/settings/access-control';
import { describeTemplate } from '@/lib/templates/describe';
import { TEMPLATE_SECTIONS, type TemplateSection, templateSchema } from '@/lib/templates/schema';
import { SECTION_TITLES } from '@/lib/templates/words';
import { DAYS, LOCK_AREAS } from '@/lib/service/schemas';
import { formatTemperature, type TemperatureUnit } from '@/lib/platform/units';

/**
 * A template as the activity log reads it: each section in a line of words, a weekly schedule
 * summarised as ranges of the week ("Mon–Fri 06:00–22:00 Home, 22:00–06:00 Sleep; Sat–Sun all
 * day Home"), never its 336 half-hour blocks one by one. What was recorded is untrusted JSON: a
 * section that does not read as the template schema says is worded by the caller's fallback.
 */

const SHORT_DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** "Mon–Fri", "Sat–Sun", "Mon–Wed, Fri", "Tue", "Every day": days by index, Monday 0. */
export function daysInWords(indices: readonly number[]): string {
  const sorted = [...new Set(indices)]
    .filter((index) => Number.isInteger(index) && index >= 0 && index < SHORT_DAYS.length)
    .sort((a, b) => a - b);
  if (sorted.length === SHORT_DAYS.length) return 'Every day';
  const runs: [number, number][] = [];
  for (const index of sorted) {
    const last = runs.at(-1);
    if (last && last[1] === index - 1) last[1] = index;
    else runs.push([index, index]);
  }
  return runs
    .map(([from, to]) => (from === to ? SHORT_DAYS[from] : `${SHORT_DAYS[from]}–${SHORT_DAYS[to]}`))
    .join(', ');
}

/** Whether a recorded value is a week: 7 days of 48 half-hour blocks, each a name. */
export function isWeek(value: unknown): value is string[][] {
  return (
    Array.isArray(value) &&
    value.length === DAYS.length &&
    value.every(
      (day) =>
        Array.isArray(day) &&
        day.length === BLOCKS_PER_DAY &&
        day.every((block) => typeof block === 'string'),
    )
  );
}

/** A day's runs of one name: blocks `first` up to (not including) `end`. */
type Segment = { first: number; end: number; name: string };

function segmentsOf(day: readonly string[]): Segment[] {
  const segments: Segment[] = [];
  day.forEach((name, block) => {
    const last = segments.at(-1);
    if (last && last.name === name) last.end = block + 1;
    else segments.push({ first: block, end: block + 1, name });
  });
  return segments;
}

const span = (first: number, end: number) => `${blockTime(first)}–${blockTime(end)}`;

/**
 * One day in words: "all day Home", or its ranges in order, where the night that ends the day
 * and starts it again reads as one range ("06:00–22:00 Home, 22:00–06:00 Sleep").
 */
function dayInWords(day: readonly string[]): string {
  const segments = segmentsOf(day);
  const [first] = segments;
  const last = segments.at(-1);
  if (!first || !last) return 'nothing';
  if (segments.length === 1) return `all day ${first.name}`;
  const night = segments.length > 2 && first.name === last.name;
  const middle = night ? segments.slice(1, -1) : segments;
  const parts = middle.map((segment) => `${span(segment.first, segment.end)} ${segment.name}`);
  if (night) parts.push(`${span(last.first, first.end)} ${first.name}`);
  return parts.join(', ');
}

/**
 * A week as ranges, days alike grouped (in the order the week first shows them):
 * ["Mon–Fri 06:00–22:00 Home, 22:00–06:00 Sleep", "Sat–Sun all day Home"].
 */
export function weekInRanges(week: readonly (readonly string[])[]): string[] {
  const groups = new Map<string, number[]>();
  week.forEach((day, index) => {
    const words = dayInWords(day);
    groups.set(words, [...(groups.get(words) ?? []), index]);
  });
  return [...groups].map(([words, days]) => `${daysInWords(days)} ${words}`);
}

/** "Mon–Fri 09:00–17:00 Home": a range of the week set to a comfort setting by name. */
export function scheduleRangeInWords(range: {
  days: readonly string[];
  firstSlot: number;
  lastSlot: number;
  name: string;
}): string {
  const days = range.days.map((day) => DAYS.indexOf(day as (typeof DAYS)[number]));
  return `${daysInWords(days)} ${span(range.firstSlot, range.lastSlot + 1)} ${range.name}`;
}

/** Whether a recorded value is a template's body (an object with at least one section). */
export function isTemplateBody(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    TEMPLATE_SECTIONS.some((section) => section in value)
  );
}

/** One section of a template in words, or null when it does not read as the schema says. */
function sectionWords(
  section: TemplateSection,
  value: unknown,
  unit: TemperatureUnit,
): string | null {
  if (section === 'schedule') return isWeek(value) ? weekInRanges(value).join('; ') : null;
  if (section === 'residentMode') return typeof value === 'boolean' ? (value ? 'on' : 'off') : null;
  const parsed = templateSchema.safeParse({ name: 'Recorded', [section]: value });
  if (!parsed.success) return null;
  const template = parsed.data;
  if (section === 'comfortSettings' && template.comfortSettings) {
    const degrees = (fahrenheit: number) => formatTemperature(fahrenheit, unit);
    return template.comfortSettings
      .map((setting) => {
        const fans = [
          setting.fanHeat === 'on' ? 'fan always on when heating' : '',
          setting.fanCool === 'on' ? 'fan always on when cooling' : '',
        ].filter(Boolean);
        const values = [
          `heat ${degrees(setting.desiredHeat)}`,
          `cool ${degrees(setting.desiredCool)}`,
          ...fans,
        ];
        return `${setting.name} (${values.join(', ')})`;
      })
      .join('; ');
  }
  if (section === 'scheduleRanges' && template.scheduleRanges) {
    return template.scheduleRanges.map(scheduleRangeInWords).join('; ');
  }
  if (section === 'accessControl' && template.accessControl) {
    const access = template.accessControl;
    if (!access.enabled) return 'off (everything unlocked, each passcode cleared)';
    const locked = LOCK_AREAS.filter((area) => access.settings[area]).map((area) =>
      LOCK_AREA_TEXT[area].label.toLowerCase(),
    );
    return `on, locked: ${locked.join(', ') || 'nothing'}`;
  }
  const [described] = describeTemplate(template, unit);
  return described ? described.lines.join('; ') : null;
}

/**
 * What a template entry recorded (`before` and `after`: null when it was created or deleted) as
 * lines: each section it set, or, for a change, each section that changed ("was → now"), and a
 * new name. `fallback` words a section the schema does not read.
 */
export function templateChangeLines(
  before: unknown,
  after: unknown,
  unit: TemperatureUnit,
  fallback: (value: unknown) => string,
): [string, string][] {
  const was = isTemplateBody(before) ? before : null;
  const now = isTemplateBody(after) ? after : null;
  const lines: [string, string][] = [];
  if (
    was &&
    now &&
    typeof was.name === 'string' &&
    typeof now.name === 'string' &&
    was.name !== now.name
  ) {
    lines.push(['Name', `${was.name} → ${now.name}`]);
  }
  const words = (section: TemplateSection, value: unknown) =>
    value === undefined ? 'not set' : (sectionWords(section, value, unit) ?? fallback(value));
  for (const section of TEMPLATE_SECTIONS) {
    const from = was?.[section];
    const to = now?.[section];
    if (from === undefined && to === undefined) continue;
    if (was && now) {
      if (JSON.stringify(from) === JSON.stringify(to)) continue;
      lines.push([SECTION_TITLES[section], `${words(section, from)} → ${words(section, to)}`]);
    } else {
      lines.push([SECTION_TITLES[section], words(section, was ? from : to)]);
    }
  }
  return lines;
}

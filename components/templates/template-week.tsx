import { colorAt } from '@/components/schedule/palette';
import { BLOCKS_PER_DAY, blockTime, DAY_LABELS, describeUsage } from '@/lib/schedule/blocks';
import type { TemplateComfortSetting } from '@/lib/templates/schema';
import { nameKey } from '@/lib/templates/schema';
import { DAYS } from '@/lib/service/schemas';
import { formatTemperature, type TemperatureUnit } from '@/lib/platform/units';

const BLOCKS = Array.from({ length: BLOCKS_PER_DAY }, (_, block) => block);
const HOURS = [0, 6, 12, 18];

/**
 * A template's week, read only: a compact 7 x 48 grid coloured by comfort-setting name, and a
 * legend that says each name's setpoints (when the template defines it) and where the week uses
 * it. Drawn on the server, with no client JavaScript; the legend carries everything the colours
 * do, so the grid itself is hidden from screen readers.
 */
export function TemplateWeek({
  week,
  settings = [],
  unit,
}: {
  week: readonly (readonly string[])[];
  /** The template's own comfort settings (a name it does not define is each thermostat's own). */
  settings?: readonly TemplateComfortSetting[];
  unit: TemperatureUnit;
}) {
  // Colours by name: the template's settings first, then names in order of first use.
  const names: string[] = [];
  const seen = new Set<string>();
  for (const name of [...settings.map((setting) => setting.name), ...week.flat()]) {
    if (
      seen.has(nameKey(name)) ||
      !week.some((day) => day.some((n) => nameKey(n) === nameKey(name)))
    )
      continue;
    seen.add(nameKey(name));
    names.push(name);
  }
  const colorOf = new Map(names.map((name, index) => [nameKey(name), colorAt(index)]));
  const defined = new Map(settings.map((setting) => [nameKey(setting.name), setting]));

  return (
    <div className="grid gap-4">
      <div aria-hidden="true" className="grid gap-1 overflow-x-auto text-xs">
        <div className="grid min-w-72 grid-cols-[2.5rem_repeat(48,minmax(0,1fr))] gap-y-0.5">
          <span />
          {BLOCKS.map((block) => (
            <span
              key={block}
              className="text-[10px] leading-none text-slate-600 tabular-nums dark:text-slate-400"
            >
              {HOURS.includes(block / 2) ? blockTime(block) : ''}
            </span>
          ))}
          {DAYS.map((day, dayIndex) => (
            <div key={day} className="contents">
              <span className="pr-1 leading-4 text-slate-700 dark:text-slate-300">
                {DAY_LABELS[day].slice(0, 3)}
              </span>
              {BLOCKS.map((block) => {
                const name = week[dayIndex]?.[block] ?? '';
                return (
                  <span
                    key={block}
                    title={`${DAY_LABELS[day]} ${blockTime(block)}: ${name}`}
                    className={`h-4 ${block % 2 === 0 ? '' : 'border-r border-white/60 dark:border-slate-900/60'}`}
                    style={{ backgroundColor: colorOf.get(nameKey(name)) }}
                  />
                );
              })}
            </div>
          ))}
        </div>
      </div>
      <ul className="grid gap-2 text-sm" aria-label="Comfort settings of the week">
        {names.map((name) => {
          const setting = defined.get(nameKey(name));
          return (
            <li key={name} className="flex items-start gap-3">
              <span
                aria-hidden="true"
                className="mt-0.5 size-4 shrink-0 rounded border border-slate-900/20"
                style={{ backgroundColor: colorOf.get(nameKey(name)) }}
              />
              <span className="min-w-0">
                <span className="font-medium">{name}</span>
                <span className="block text-slate-700 dark:text-slate-300">
                  {setting
                    ? `Heat ${formatTemperature(setting.desiredHeat, unit)}, cool ${formatTemperature(setting.desiredCool, unit)}.`
                    : 'Each thermostat’s own setting of this name.'}
                </span>
                <span className="block text-xs text-muted">
                  {describeUsage(
                    week.map((day) => day.map((n) => (nameKey(n) === nameKey(name) ? name : ''))),
                    name,
                  ).join('; ')}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

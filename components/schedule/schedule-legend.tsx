import type { ComfortSetting } from '@/lib/service/schemas';
import { formatTemperature, type TemperatureUnit } from '@/lib/platform/units';
import type { ScheduleEntry } from './schedule-grid';

/** What each colour of the grid means: name, setpoints and fans of each comfort setting. */
export function ScheduleLegend({
  entries,
  settings,
  unit,
}: {
  entries: ScheduleEntry[];
  settings: ComfortSetting[];
  unit: TemperatureUnit;
}) {
  const byRef = new Map(settings.map((setting) => [setting.comfortSettingRef, setting]));
  return (
    <section aria-labelledby="legend-heading" className="grid content-start gap-3">
      <h2 id="legend-heading" className="text-lg font-medium">
        Legend
      </h2>
      <ul className="grid gap-2 text-sm">
        {entries.map((entry) => {
          const setting = byRef.get(entry.ref);
          return (
            <li key={entry.ref} className="flex items-start gap-3">
              <span
                aria-hidden="true"
                className="mt-0.5 size-4 shrink-0 rounded border border-slate-900/20"
                style={{ backgroundColor: entry.color }}
              />
              <span className="min-w-0">
                {/* The service's ref only on hover, for a technician: the name is what people use. */}
                <span className="font-medium" title={`Service ref: ${entry.ref || 'empty'}`}>
                  {entry.name}
                </span>
                <span className="block text-slate-700 dark:text-slate-300">
                  {setting
                    ? `Heat ${formatTemperature(setting.desiredHeat, unit)}, cool ${formatTemperature(setting.desiredCool, unit)}; fan ${setting.fanHeat} heating, ${setting.fanCool} cooling`
                    : 'Not one of this thermostat’s comfort settings'}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

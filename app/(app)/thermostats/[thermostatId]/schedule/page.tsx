import type { Metadata } from 'next';
import { colorAt, UNKNOWN_COLOR } from '@/components/schedule/palette';
import { RangeForm } from '@/components/schedule/range-form';
import { type ScheduleEntry, ScheduleGrid } from '@/components/schedule/schedule-grid';
import { ScheduleLegend } from '@/components/schedule/schedule-legend';
import { SectionProblem } from '@/components/thermostat/section';
import { Card } from '@/components/ui/card';
import { Notice } from '@/components/ui/notice';
import { isKnownTimeZone } from '@/lib/platform/time-format';
import { currentBlock } from '@/lib/schedule/blocks';
import { loadWeek } from '@/lib/schedule/load';
import { listComfortSettings } from '@/lib/service/resources';
import { openThermostatPage } from '@/lib/access/thermostat-page';
import { applyScheduleRange } from './actions';

export const metadata: Metadata = { title: 'Schedule' };

type Props = { params: Promise<{ thermostatId: string }> };

export default async function SchedulePage({ params }: Props) {
  const { member, thermostat, on } = await openThermostatPage(params);

  const [schedule, settings] = await Promise.allSettled([loadWeek(on), listComfortSettings(on)]);
  if (schedule.status === 'rejected' || settings.status === 'rejected') {
    const failure =
      schedule.status === 'rejected' ? schedule.reason : (settings as PromiseRejectedResult).reason;
    return <SectionProblem title="Weekly schedule" error={failure} member={member} />;
  }

  const { week } = schedule.value;
  // The schedule is in the building's zone, which Setpoint keeps (the service does not say it).
  const zone = thermostat.building?.timeZone;
  const timeZone = zone && isKnownTimeZone(zone) ? zone : 'UTC';
  // One bound action for the grid and the plain form: both make the same change.
  const apply = applyScheduleRange.bind(null, thermostat.thermostatId);
  const entries: ScheduleEntry[] = settings.value.map((setting, index) => ({
    ref: setting.comfortSettingRef,
    name: setting.name,
    color: colorAt(index),
    known: true,
  }));
  // Refs the schedule names that the thermostat does not list are shown, not hidden.
  const known = new Set(entries.map((entry) => entry.ref));
  for (const ref of new Set(week.flat())) {
    if (!known.has(ref))
      entries.push({
        ref,
        name: `Unknown (${ref || 'empty'})`,
        color: UNKNOWN_COLOR,
        known: false,
      });
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(16rem,1fr)]">
      <Card className="grid content-start gap-4 p-4 sm:p-6">
        <h2 className="text-lg font-medium">Weekly schedule</h2>
        {zone ? null : (
          <Notice tone="warning">
            The building’s time zone is unknown, so times are shown in UTC.
          </Notice>
        )}
        <ScheduleGrid
          apply={apply}
          timeZone={timeZone}
          week={week}
          entries={entries}
          initialNow={currentBlock(new Date(), timeZone)}
        />
      </Card>
      <div className="grid content-start gap-6">
        <Card>
          <ScheduleLegend
            entries={entries}
            settings={settings.value}
            unit={member.temperatureUnit}
          />
        </Card>
        <Card className="grid gap-3">
          <h2 className="text-lg font-medium">Set a time range</h2>
          <p className="text-sm text-muted">
            The same change as selecting blocks in the grid, one form.
          </p>
          <RangeForm
            apply={apply}
            choices={settings.value.map(({ comfortSettingRef, name }) => ({
              ref: comfortSettingRef,
              name,
            }))}
          />
        </Card>
      </div>
    </div>
  );
}

import type { Metadata } from 'next';
import {
  type ComfortValues,
  CreateComfortSettingForm,
  DeleteComfortSettingForm,
  EditComfortSettingForm,
  type SetpointHints,
} from '@/components/comfort/comfort-forms';
import { colorAt } from '@/components/schedule/palette';
import { SectionProblem } from '@/components/thermostat/section';
import { Card } from '@/components/ui/card';
import { Notice } from '@/components/ui/notice';
import { RedirectNotice } from '@/components/ui/redirect-notice';
import { loadComfortRules } from '@/lib/comfort/load';
import { describeSetpointRules, type SetpointRules } from '@/lib/comfort/setpoint-rules';
import { describeUsage } from '@/lib/schedule/blocks';
import { loadWeek } from '@/lib/schedule/load';
import { describeServiceError } from '@/lib/service/errors';
import type { ComfortSetting } from '@/lib/service/schemas';
import { openThermostatPage } from '@/lib/access/thermostat-page';
import { readNotice } from '@/lib/platform/notice';
import {
  displayDelta,
  displayRange,
  formatTemperature,
  type TemperatureUnit,
  toDisplay,
} from '@/lib/platform/units';
import {
  createComfortSettingAction,
  deleteComfortSettingAction,
  updateComfortSettingAction,
} from './actions';

export const metadata: Metadata = { title: 'Comfort settings' };

type Props = {
  params: Promise<{ thermostatId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

function hintsFor(rules: SetpointRules, unit: TemperatureUnit): SetpointHints {
  const heat = displayRange(rules.heatRange, unit);
  const cool = displayRange(rules.coolRange, unit);
  return {
    heat: `${heat.min}–${heat.max} °${unit}.`,
    cool: `${cool.min}–${cool.max} °${unit}, at least ${displayDelta(rules.heatCoolMinDelta, unit)} °${unit} above heat.`,
    note:
      unit === 'C' ? 'Values are sent to the thermostat in °F, rounded to 2 decimals.' : undefined,
  };
}

function valuesOf(setting: ComfortSetting, unit: TemperatureUnit): ComfortValues {
  return {
    name: setting.name,
    desiredHeat: String(toDisplay(setting.desiredHeat, unit)),
    desiredCool: String(toDisplay(setting.desiredCool, unit)),
    fanHeat: setting.fanHeat,
    fanCool: setting.fanCool,
  };
}

export default async function ComfortSettingsPage({ params, searchParams }: Props) {
  const { member, thermostat, on } = await openThermostatPage(params);
  const notice = readNotice(await searchParams, member);
  const unit = member.temperatureUnit;

  const [loaded, week] = await Promise.allSettled([loadComfortRules(on), loadWeek(on)]);
  if (loaded.status === 'rejected') {
    return <SectionProblem title="Comfort settings" error={loaded.reason} member={member} />;
  }
  const { rules, settings } = loaded.value;
  const hints = hintsFor(rules, unit);

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(18rem,2fr)]">
      <section aria-labelledby="settings-heading" className="grid content-start gap-4">
        <h2 id="settings-heading" className="text-lg font-medium">
          Comfort settings
        </h2>
        <RedirectNotice notice={notice} />
        <p className="text-sm text-muted">{describeSetpointRules(rules, unit)}</p>
        {week.status === 'rejected' ? (
          <Notice tone="warning">
            Where the schedule uses each setting is not shown: {describeServiceError(week.reason)}
          </Notice>
        ) : null}
        <ul className="grid gap-4">
          {settings.map((setting, index) => {
            const ref = setting.comfortSettingRef;
            const usage = week.status === 'fulfilled' ? describeUsage(week.value.week, ref) : null;
            return (
              <li key={ref}>
                <Card className="grid gap-3 p-4 sm:p-5">
                  <article aria-labelledby={`setting-${ref}`} className="grid gap-3">
                    <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                      <span
                        aria-hidden="true"
                        className="size-3.5 shrink-0 self-center rounded border border-slate-900/20"
                        style={{ backgroundColor: colorAt(index) }}
                      />
                      <h3 id={`setting-${ref}`} className="font-medium">
                        {setting.name}
                      </h3>
                    </div>
                    <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
                      {(
                        [
                          ['Heat', formatTemperature(setting.desiredHeat, unit)],
                          ['Cool', formatTemperature(setting.desiredCool, unit)],
                          ['Fan heating', setting.fanHeat],
                          ['Fan cooling', setting.fanCool],
                        ] as const
                      ).map(([term, value]) => (
                        <div key={term}>
                          <dt className="text-muted">{term}</dt>
                          <dd className="font-medium">{value}</dd>
                        </div>
                      ))}
                    </dl>
                    {usage ? (
                      <p className="text-sm text-slate-700 dark:text-slate-300">
                        {usage.length
                          ? `Used by the schedule: ${usage.join('; ')}.`
                          : 'Not used by the schedule.'}
                      </p>
                    ) : null}
                    <details className="group rounded-lg border border-slate-200 dark:border-slate-800">
                      <summary className="cursor-pointer px-3 py-2 text-sm font-medium">
                        Edit {setting.name}
                      </summary>
                      <div className="border-t border-slate-200 p-3 dark:border-slate-800">
                        <EditComfortSettingForm
                          update={updateComfortSettingAction.bind(
                            null,
                            thermostat.thermostatId,
                            ref,
                          )}
                          comfortSettingRef={ref}
                          current={valuesOf(setting, unit)}
                          unit={unit}
                          hints={hints}
                        />
                      </div>
                    </details>
                    <details className="rounded-lg border border-slate-200 dark:border-slate-800">
                      <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-danger">
                        Delete {setting.name}…
                      </summary>
                      <div className="border-t border-slate-200 p-3 dark:border-slate-800">
                        <DeleteComfortSettingForm
                          remove={deleteComfortSettingAction.bind(
                            null,
                            thermostat.thermostatId,
                            ref,
                            setting.name,
                          )}
                          name={setting.name}
                        />
                      </div>
                    </details>
                    {/* The service's ref, for a technician (or a support call). */}
                    <details className="text-xs">
                      <summary className="cursor-pointer text-muted">
                        As the service reports it
                      </summary>
                      <p className="mt-1 text-muted">
                        Service ref: <span className="font-mono">{ref}</span>
                      </p>
                    </details>
                  </article>
                </Card>
              </li>
            );
          })}
        </ul>
      </section>
      <Card className="grid content-start gap-4 self-start">
        <h2 className="text-lg font-medium">New comfort setting</h2>
        <CreateComfortSettingForm
          create={createComfortSettingAction.bind(null, thermostat.thermostatId)}
          unit={unit}
          hints={hints}
        />
      </Card>
    </div>
  );
}

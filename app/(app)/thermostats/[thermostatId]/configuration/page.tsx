import type { Metadata } from 'next';
import { ConfigurationForm } from '@/components/settings/configuration-form';
import { SectionHeading, SectionProblem } from '@/components/thermostat/section';
import { Card } from '@/components/ui/card';
import { Notice } from '@/components/ui/notice';
import {
  configurationFormValues,
  DEFAULT_HEAT_COOL_MIN_DELTA,
  describeHoldAction,
  heatCoolGapOf,
} from '@/lib/settings/configuration';
import { describeServiceError } from '@/lib/service/errors';
import { getSettings, getStatus } from '@/lib/service/resources';
import { DEVICE_LIMITS } from '@/lib/service/schemas';
import { openThermostatPage } from '@/lib/access/thermostat-page';
import {
  formatDelta,
  formatRange,
  formatTemperature,
  type TemperatureRange,
} from '@/lib/platform/units';
import { saveConfiguration } from './actions';

export const metadata: Metadata = { title: 'Configuration' };

type Props = { params: Promise<{ thermostatId: string }> };

export default async function ConfigurationPage({ params }: Props) {
  const { member, thermostat, on } = await openThermostatPage(params);
  const unit = member.temperatureUnit;

  const [settings, status] = await Promise.allSettled([getSettings(on), getStatus(on)]);
  if (settings.status === 'rejected') {
    return <SectionProblem title="Configuration" error={settings.reason} member={member} />;
  }
  const delta = heatCoolGapOf(status);
  const current = settings.value;
  // The thermostat's own range: two values, shown as values (not as limits).
  const range = (r: TemperatureRange) =>
    `${formatTemperature(r.min, unit)} to ${formatTemperature(r.max, unit)}`;

  return (
    <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
      <Card className="grid content-start gap-4">
        <SectionHeading title="Configuration settings">
          Limits for anyone adjusting this thermostat, how long their changes hold, and how long the
          fan runs each hour. Values are checked before anything is sent to the service.
        </SectionHeading>
        {status.status === 'rejected' ? (
          <Notice tone="warning">
            Could not read this thermostat’s heat–cool gap ({describeServiceError(status.reason)}
            ); the default of {formatDelta(DEFAULT_HEAT_COOL_MIN_DELTA, unit)} is assumed.
          </Notice>
        ) : null}
        <ConfigurationForm
          action={saveConfiguration.bind(null, thermostat.thermostatId)}
          initial={configurationFormValues(current, unit)}
          limits={{
            heat: formatRange(DEVICE_LIMITS.heat, unit),
            cool: formatRange(DEVICE_LIMITS.cool, unit),
            gap: formatDelta(delta, unit),
            unit,
          }}
        />
      </Card>
      <Card className="grid content-start gap-3">
        <h2 className="text-lg font-medium">Now at the service</h2>
        <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
          <dt className="text-muted">Heat range</dt>
          <dd className="font-medium">{range(current.heatRange)}</dd>
          <dt className="text-muted">Cool range</dt>
          <dd className="font-medium">{range(current.coolRange)}</dd>
          <dt className="text-muted">Hold action</dt>
          <dd className="font-medium">{describeHoldAction(current.holdAction)}</dd>
          <dt className="text-muted">Fan minimum on-time</dt>
          <dd className="font-medium">{current.fanMinimumOnTime} min per hour</dd>
          <dt className="text-muted">Heat–cool gap</dt>
          <dd className="font-medium">{formatDelta(delta, unit)}</dd>
        </dl>
      </Card>
    </div>
  );
}

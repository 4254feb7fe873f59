import type { Metadata } from 'next';
import { AlertsForm } from '@/components/settings/alerts-form';
import { SectionHeading, SectionProblem } from '@/components/thermostat/section';
import { Card } from '@/components/ui/card';
import { alertFormValues, TEMPERATURE_ALERT_LIMITS } from '@/lib/settings/alerts';
import { heatCoolGapOf } from '@/lib/settings/configuration';
import { getAlertSettings, getStatus } from '@/lib/service/resources';
import { openThermostatPage } from '@/lib/access/thermostat-page';
import { todayIn } from '@/lib/platform/time-format';
import { formatDelta, formatRange } from '@/lib/platform/units';
import { saveAlerts } from './actions';

export const metadata: Metadata = { title: 'Alerts' };

type Props = { params: Promise<{ thermostatId: string }> };

export default async function AlertsPage({ params }: Props) {
  const { member, thermostat, on } = await openThermostatPage(params);
  const unit = member.temperatureUnit;
  const [alerts, status] = await Promise.allSettled([getAlertSettings(on), getStatus(on)]);
  if (alerts.status === 'rejected') {
    return <SectionProblem title="Alert settings" error={alerts.reason} member={member} />;
  }
  const delta = heatCoolGapOf(status);
  return (
    <Card className="grid max-w-4xl content-start gap-4">
      <SectionHeading title="Alert settings">
        What this thermostat warns about. Only the values you change are sent.
      </SectionHeading>
      <AlertsForm
        action={saveAlerts.bind(null, thermostat.thermostatId)}
        initial={alertFormValues(alerts.value, unit)}
        nextReminderDate={alerts.value.hvacMaintenanceReminder.nextReminderDate ?? null}
        unit={unit}
        gap={formatDelta(delta, unit)}
        range={formatRange(TEMPERATURE_ALERT_LIMITS, unit)}
        today={todayIn(thermostat.building?.timeZone ?? 'UTC')}
      />
    </Card>
  );
}

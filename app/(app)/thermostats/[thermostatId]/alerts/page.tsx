import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { AlertsForm } from '@/components/settings/alerts-form';
import { ServiceProblem } from '@/components/connection/service-problem';
import { Card } from '@/components/ui/card';
import { requireMember } from '@/lib/auth/session';
import { scopedThermostat } from '@/lib/portfolio/guard';
import { alertFormValues, TEMPERATURE_ALERT_LIMITS } from '@/lib/settings/alerts';
import { DEFAULT_HEAT_COOL_MIN_DELTA } from '@/lib/settings/configuration';
import { getAlertSettings, getStatus } from '@/lib/thermostat-api/resources';
import { todayIn } from '@/lib/time-format';
import { formatDelta, formatRange } from '@/lib/units';
import { saveAlerts } from './actions';

export const metadata: Metadata = { title: 'Alerts' };

type Props = { params: Promise<{ thermostatId: string }> };

export default async function AlertsPage({ params }: Props) {
  const member = await requireMember();
  const { thermostatId } = await params;
  const thermostat = await scopedThermostat(member, thermostatId);
  if (!thermostat) notFound();
  const who = { orgId: member.orgId, thermostatId: thermostat.thermostatId };
  const unit = member.temperatureUnit;
  const [alerts, status] = await Promise.allSettled([getAlertSettings(who), getStatus(who)]);
  if (alerts.status === 'rejected') {
    return (
      <Card className="grid gap-3">
        <h2 className="text-lg font-medium">Alert settings</h2>
        <ServiceProblem error={alerts.reason} member={member} />
      </Card>
    );
  }
  const delta =
    status.status === 'fulfilled' ? status.value.heatCoolMinDelta : DEFAULT_HEAT_COOL_MIN_DELTA;
  return (
    <Card className="grid max-w-4xl content-start gap-4">
      <div>
        <h2 className="text-lg font-medium">Alert settings</h2>
        <p className="mt-1 text-sm text-muted">
          What this thermostat warns about. Only the values you change are sent.
        </p>
      </div>
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

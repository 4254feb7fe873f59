import type { Metadata } from 'next';
import { type BulkBuilding, BulkConfiguration } from '@/components/bulk/bulk-configuration';
import { Card } from '@/components/ui/card';
import { NotAllowed } from '@/components/ui/not-allowed';
import { can, refusal } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { listBuildings, listThermostats } from '@/lib/db/queries';
import { DEFAULT_HEAT_COOL_MIN_DELTA } from '@/lib/settings/configuration';
import { DEVICE_LIMITS } from '@/lib/thermostat-api/schemas';
import { formatDelta, formatRange } from '@/lib/units';

export const metadata: Metadata = { title: 'Bulk configuration' };

export default async function BulkPage() {
  const member = await requireMember();
  if (!can(member, 'change_thermostat')) {
    return (
      <NotAllowed
        title="Bulk configuration"
        message={refusal(member.role, 'change_thermostat').replace(' Nothing was changed.', '')}
      />
    );
  }
  const unit = member.temperatureUnit;
  const [buildings, thermostats] = await Promise.all([
    listBuildings({ scope: member }),
    listThermostats({ scope: member }),
  ]);
  const groups: BulkBuilding[] = buildings.map((building) => ({
    buildingId: building.buildingId,
    name: building.name,
    thermostats: thermostats
      .filter((t) => t.buildingId === building.buildingId)
      .map((t) => ({ thermostatId: t.thermostatId, label: t.unitLabel })),
  }));

  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Bulk configuration</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600 dark:text-slate-400">
          Apply the same configuration settings to many thermostats at once. The service takes 25
          per request, so larger selections are sent in several requests, a few at a time; every
          thermostat gets a result, and you can retry the ones that did not apply.
        </p>
      </div>
      <Card>
        {thermostats.length === 0 ? (
          <p className="text-sm">Add thermostats to your portfolio first.</p>
        ) : (
          <BulkConfiguration
            buildings={groups}
            unit={unit}
            limits={{
              heat: formatRange(DEVICE_LIMITS.heat, unit, '–'),
              cool: formatRange(DEVICE_LIMITS.cool, unit, '–'),
              gap: formatDelta(DEFAULT_HEAT_COOL_MIN_DELTA, unit),
            }}
          />
        )}
      </Card>
    </div>
  );
}

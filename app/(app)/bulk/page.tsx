import type { Metadata } from 'next';
import { type BulkBuilding, BulkConfiguration } from '@/components/bulk/bulk-configuration';
import { Card } from '@/components/ui/card';
import { requireUser } from '@/lib/auth/session';
import { listBuildings, listThermostats } from '@/lib/db/queries';
import { DEFAULT_HEAT_COOL_MIN_DELTA } from '@/lib/settings/configuration';
import { DEVICE_LIMITS, formatShown, shownDelta } from '@/lib/settings/temperature';

export const metadata: Metadata = { title: 'Bulk configuration' };

export default async function BulkPage() {
  const user = await requireUser();
  const unit = user.temperatureUnit;
  const [buildings, thermostats] = await Promise.all([
    listBuildings({ userId: user.id }),
    listThermostats({ userId: user.id }),
  ]);
  const groups: BulkBuilding[] = buildings.map((building) => ({
    buildingId: building.buildingId,
    name: building.name,
    thermostats: thermostats
      .filter((t) => t.buildingId === building.buildingId)
      .map((t) => ({ thermostatId: t.thermostatId, label: t.unitLabel })),
  }));
  const range = (r: { min: number; max: number }) =>
    `${formatShown(r.min, unit)}–${formatShown(r.max, unit)}`;

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
              heat: range(DEVICE_LIMITS.heat),
              cool: range(DEVICE_LIMITS.cool),
              gap: `${shownDelta(DEFAULT_HEAT_COOL_MIN_DELTA, unit)} °${unit}`,
            }}
          />
        )}
      </Card>
    </div>
  );
}

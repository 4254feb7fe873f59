import type { ReactNode } from 'react';
import { UnitToggle } from '@/components/thermostat/thermostat-forms';
import { ThermostatTabs } from '@/components/thermostat/thermostat-tabs';
import { Trail } from '@/components/ui/trail';
import { can } from '@/lib/auth/permissions';
import { openThermostatPage } from '@/lib/access/thermostat-page';
import { chooseTemperatureUnit } from './actions';

/** Every page of one thermostat: where it is, what it is called, and its sections. */
export default async function ThermostatLayout({
  params,
  children,
}: {
  params: Promise<{ thermostatId: string }>;
  children: ReactNode;
}) {
  const { member, thermostat } = await openThermostatPage(params);
  // One column that never grows past the window (minmax(0, 1fr)), so a wide table or form in a
  // page scrolls or wraps inside its own box instead of widening every thermostat page.
  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <Trail
            steps={[
              { href: '/', label: 'Overview' },
              {
                href: `/buildings/${thermostat.buildingId}`,
                label: thermostat.building?.name ?? 'Building',
              },
            ]}
          />
          <h1 className="text-2xl font-semibold tracking-tight wrap-anywhere">
            {thermostat.unitLabel || thermostat.thermostatId}
          </h1>
          <p className="mt-1 font-mono text-xs break-all text-muted">{thermostat.thermostatId}</p>
        </div>
        <UnitToggle action={chooseTemperatureUnit} unit={member.temperatureUnit} />
      </div>
      <ThermostatTabs thermostatId={thermostat.thermostatId} />
      {/* A member who may not change this thermostat sees its settings with every control
          disabled (the actions refuse them anyway). */}
      {can(member, 'change_thermostat', thermostat) ? (
        children
      ) : (
        <fieldset disabled className="contents">
          {children}
        </fieldset>
      )}
    </div>
  );
}

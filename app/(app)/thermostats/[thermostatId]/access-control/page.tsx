import type { Metadata } from 'next';
import { AccessControlForm } from '@/components/settings/access-control-form';
import { SectionHeading } from '@/components/thermostat/section';
import { Card } from '@/components/ui/card';
import { When } from '@/components/ui/when';
import { LOCK_AREA_TEXT } from '@/lib/settings/access-control';
import { findLastAccessControl } from '@/lib/templates/last-access-control';
import { LOCK_AREAS } from '@/lib/service/schemas';
import { openThermostatPage } from '@/lib/access/thermostat-page';
import { saveAccessControl } from './actions';

export const metadata: Metadata = { title: 'Access control' };

type Props = { params: Promise<{ thermostatId: string }> };

export default async function AccessControlPage({ params }: Props) {
  const { member, thermostat } = await openThermostatPage(params);
  const last = await findLastAccessControl({
    scope: member,
    thermostatId: thermostat.thermostatId,
  });
  // Unknown until set through Setpoint: the form then makes the member choose on or off.
  const initial = last ?? {
    enabled: null,
    settings: Object.fromEntries(LOCK_AREAS.map((area) => [area, false])) as Record<
      (typeof LOCK_AREAS)[number],
      boolean
    >,
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
      <Card className="grid content-start gap-4">
        <SectionHeading title="Access control">
          Lock parts of the thermostat behind a 4-digit passcode, e.g. in common areas.
        </SectionHeading>
        <AccessControlForm
          action={saveAccessControl.bind(null, thermostat.thermostatId)}
          initial={initial}
        />
      </Card>
      <Card className="grid content-start gap-3 text-sm">
        <h2 className="text-lg font-medium">Current state</h2>
        <p className="text-muted">
          The thermostat service does not let Setpoint read access control: it only answers when it
          is changed. So Setpoint cannot show the state set at the device or by other apps, and it
          never knows a passcode.
        </p>
        {last ? (
          <p>
            {last.source === 'reset' ? (
              <>
                Resident mode was turned off{' '}
                <When at={last.at} zone={thermostat.building?.timeZone} /> by {last.actorName},
                which turned access control off.
              </>
            ) : (
              <>
                Last set through Setpoint <When at={last.at} zone={thermostat.building?.timeZone} />{' '}
                by {last.actorName}: <strong>{last.enabled ? 'on' : 'off'}</strong>
                {last.enabled
                  ? `, locked: ${
                      LOCK_AREAS.filter((area) => last.settings[area])
                        .map((area) => LOCK_AREA_TEXT[area].label.toLowerCase())
                        .join(', ') || 'nothing'
                    }`
                  : ''}
                . The form starts from that.
              </>
            )}
          </p>
        ) : (
          <p>
            Not changed through Setpoint yet, so its state is unknown here. Choose on or off; saving
            sets exactly what the form shows.
          </p>
        )}
      </Card>
    </div>
  );
}

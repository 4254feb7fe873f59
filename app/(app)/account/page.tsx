import type { Metadata } from 'next';
import { PreferencesForm } from '@/components/account/preferences-form';
import { Card } from '@/components/ui/card';
import { zoneChoices } from '@/lib/auth/preferences';
import { ROLE_NAMES } from '@/lib/auth/permissions';
import { timeZoneName } from '@/lib/platform/words';
import { requireMember } from '@/lib/auth/session';
import { savePreferencesAction } from './actions';

export const metadata: Metadata = { title: 'Your account' };

export default async function AccountPage() {
  const member = await requireMember();
  const timeZones = zoneChoices().map((zone) => ({ value: zone, label: timeZoneName(zone) }));
  return (
    <div className="grid max-w-3xl gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Your account</h1>
        <p className="mt-1 text-sm text-muted">
          {member.name} · {member.email} · {ROLE_NAMES[member.role]} at {member.orgName}
        </p>
      </div>
      <Card className="grid gap-3">
        <h2 className="text-lg font-medium">How you read times and temperatures</h2>
        {member.timeZoneChosen ? null : (
          <p className="text-sm text-muted">
            You have not chosen a time zone yet, so Setpoint uses the one most of your
            organisation’s buildings are in.
          </p>
        )}
        <PreferencesForm
          action={savePreferencesAction}
          timeZones={timeZones}
          timeZone={member.timeZone}
          temperatureUnit={member.temperatureUnit}
        />
      </Card>
    </div>
  );
}
